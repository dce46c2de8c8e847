//go:build !linux

package proctree

// KillTagged does nothing where there is no /proc to find a command's
// descendants by their environment; only the process group is killed.
func KillTagged(tag string) {}
