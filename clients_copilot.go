package toolfind

import _ "github.com/toolfind/toolfind/copilot" // registers copilot@1.0.102
