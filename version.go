package toolfind

import (
	"runtime"
	"runtime/debug"
	"sync"
)

// ModulePath is toolfind's module path.
const ModulePath = "github.com/toolfind/toolfind"

// Version is toolfind's own version: Build().Version.
var Version = Build().Version

// The release build's stamps, set by the linker (.goreleaser.yaml):
//
//	-X github.com/toolfind/toolfind.stampedVersion=v0.2.0
//	-X github.com/toolfind/toolfind.stampedCommit=<full commit>
//
// Empty otherwise.
var stampedVersion, stampedCommit string

// BuildInfo is what is known of the toolfind that is running.
type BuildInfo struct {
	// Version is the module version: the tag of a release (v0.2.0, from
	// `go install github.com/toolfind/toolfind/cmd/toolfind@v0.2.0`, a
	// release archive, or `go install ./cmd/toolfind` in a checkout of
	// the tag), a pseudo-version of an untagged commit
	// (v0.2.1-0.20261203222203-caba1e20948d, with "+dirty" when the
	// checkout had changes), or "(devel)" when the build recorded no
	// version (go run, go test, -buildvcs=false).
	Version string `json:"version"`
	// Commit, CommitTime and Modified are the checkout's commit, its time
	// (RFC 3339) and whether it had uncommitted changes, when the build
	// recorded them (vcs.revision, vcs.time, vcs.modified).
	Commit     string `json:"commit,omitempty"`
	CommitTime string `json:"commit_time,omitempty"`
	Modified   bool   `json:"modified,omitempty"`
	// GoVersion is the Go release that built the binary.
	GoVersion string `json:"go"`
}

// Build reports the running toolfind's build: from the linker's stamps of
// a release build when set, else from the build information the Go
// toolchain records (runtime/debug.ReadBuildInfo), where toolfind is the
// main module (its own binary) or a dependency (a program using the
// library: its required version, or its replacement's).
func Build() BuildInfo { return build() }

var build = sync.OnceValue(func() BuildInfo {
	bi, _ := debug.ReadBuildInfo()
	return buildInfo(bi, stampedVersion, stampedCommit)
})

// buildInfo is Build over given build information and stamps.
func buildInfo(bi *debug.BuildInfo, version, commit string) BuildInfo {
	b := BuildInfo{Version: "(devel)", GoVersion: runtime.Version()}
	if bi != nil {
		if bi.GoVersion != "" {
			b.GoVersion = bi.GoVersion
		}
		if m := module(bi); m != nil && m.Version != "" {
			b.Version = m.Version
		}
		if bi.Main.Path == ModulePath {
			// VCS settings describe the main module's checkout only.
			for _, s := range bi.Settings {
				switch s.Key {
				case "vcs.revision":
					b.Commit = s.Value
				case "vcs.time":
					b.CommitTime = s.Value
				case "vcs.modified":
					b.Modified = s.Value == "true"
				}
			}
		}
	}
	if version != "" {
		b.Version = version
	}
	if commit != "" {
		b.Commit = commit
	}
	return b
}

// module is toolfind's module in bi: the main module, or the dependency
// (its replacement when replaced).
func module(bi *debug.BuildInfo) *debug.Module {
	if bi.Main.Path == ModulePath {
		return &bi.Main
	}
	for _, d := range bi.Deps {
		if d.Path == ModulePath {
			if d.Replace != nil {
				return d.Replace
			}
			return d
		}
	}
	return nil
}

// String is the version with what is known of the commit, on one line:
// "v0.2.0 (commit caba1e20948d, 2026-12-03T22:22:03Z)", "(devel) (commit
// caba1e20948d, modified)" or "(devel)".
func (b BuildInfo) String() string {
	s := b.Version
	if b.Commit == "" {
		return s
	}
	c := b.Commit
	if len(c) > 12 {
		c = c[:12]
	}
	s += " (commit " + c
	if b.CommitTime != "" {
		s += ", " + b.CommitTime
	}
	if b.Modified {
		s += ", modified"
	}
	return s + ")"
}
