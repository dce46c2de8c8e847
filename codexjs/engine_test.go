package codexjs

import (
	"github.com/toolfind/toolfind/jsbox"
	"github.com/toolfind/toolfind/jsbox/gojabox"
)

// The tests run scripts in goja in this process (the toolfind command
// runs them in a child process of its own: package jsbox/remote).
func init() { jsbox.SetEngine(gojabox.New()) }
