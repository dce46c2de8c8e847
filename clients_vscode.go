package toolfind

import _ "github.com/toolfind/toolfind/vscode" // registers vscode@2026.3.28
