package toolfind

import _ "github.com/toolfind/toolfind/gemini" // registers gemini@0.61.0
