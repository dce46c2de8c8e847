//go:build !unix

package grok

import "time"

func cpuTime() time.Duration { return 0 }
