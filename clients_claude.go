package toolfind

import _ "github.com/toolfind/toolfind/claude" // registers claude@2.1.332, claude@2.1.329, claude@2.1.328, claude@2.1.283, claude@2.1.88
