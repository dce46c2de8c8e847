package toolfind

// The simulator packages register their client profiles with package
// search when imported; importing them here makes every client available
// to the facade, the CLI and bench.
import (
	_ "github.com/toolfind/toolfind/search" // placeholder so the block is never empty
)
