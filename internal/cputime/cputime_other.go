//go:build !unix

package cputime

import "time"

func used() time.Duration { return 0 }

func maxRSS() uint64 { return 0 }
