package toolfind_test

import (
	"github.com/toolfind/toolfind/jsbox"
	"github.com/toolfind/toolfind/jsbox/gojabox"
)

// The tests run the code-mode clients' scripts in goja in this process
// (the toolfind command runs them in a child process of its own).
func init() { jsbox.SetEngine(gojabox.New()) }
