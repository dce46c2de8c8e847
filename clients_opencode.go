package toolfind

import _ "github.com/toolfind/toolfind/opencode"
