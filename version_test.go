package toolfind

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBuildInfo(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "-buildmode", Value: "exe"},
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "caba1e20948d193f5f21593ffdc5518a37d6e572"},
		{Key: "vcs.time", Value: "2026-12-03T22:22:03Z"},
		{Key: "vcs.modified", Value: "true"},
	}
	main := func(version string, settings []debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: ModulePath, Version: version}, Settings: settings}
	}
	dep := func(d *debug.Module) *debug.BuildInfo {
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "example.com/app", Version: "v1.0.0"},
			Deps: []*debug.Module{{Path: "golang.org/x/text", Version: "v0.44.0"}, d}, Settings: vcs}
	}
	for _, tc := range []struct {
		name            string
		bi              *debug.BuildInfo
		version, commit string // the linker's stamps
		want            BuildInfo
		str             string
	}{
		{"go install @tag: the module version, no vcs settings",
			main("v0.2.0", nil), "", "",
			BuildInfo{Version: "v0.2.0", GoVersion: "go1.26.8"}, "v0.2.0"},
		{"a tagged checkout with changes: +dirty and the commit",
			main("v0.2.0+dirty", vcs), "", "",
			BuildInfo{Version: "v0.2.0+dirty", Commit: "caba1e20948d193f5f21593ffdc5518a37d6e572", CommitTime: "2026-12-03T22:22:03Z", Modified: true, GoVersion: "go1.26.8"},
			"v0.2.0+dirty (commit caba1e20948d, 2026-12-03T22:22:03Z, modified)"},
		{"go run: (devel) and the commit of vcs settings",
			main("(devel)", vcs[:4]), "", "",
			BuildInfo{Version: "(devel)", Commit: "caba1e20948d193f5f21593ffdc5518a37d6e572", CommitTime: "2026-12-03T22:22:03Z", GoVersion: "go1.26.8"},
			"(devel) (commit caba1e20948d, 2026-12-03T22:22:03Z)"},
		{"an empty main version is (devel)",
			main("", nil), "", "",
			BuildInfo{Version: "(devel)", GoVersion: "go1.26.8"}, "(devel)"},
		{"the linker's stamps win (a release archive built with -buildvcs=false)",
			main("(devel)", nil), "v0.2.0", "caba1e20948d193f5f21593ffdc5518a37d6e572",
			BuildInfo{Version: "v0.2.0", Commit: "caba1e20948d193f5f21593ffdc5518a37d6e572", GoVersion: "go1.26.8"},
			"v0.2.0 (commit caba1e20948d)"},
		{"a library: the required version; the program's vcs settings are not toolfind's",
			dep(&debug.Module{Path: ModulePath, Version: "v0.3.1"}), "", "",
			BuildInfo{Version: "v0.3.1", GoVersion: "go1.26.8"}, "v0.3.1"},
		{"a replaced library: the replacement's version",
			dep(&debug.Module{Path: ModulePath, Version: "v0.3.1", Replace: &debug.Module{Path: "example.com/fork", Version: "v0.3.2"}}), "", "",
			BuildInfo{Version: "v0.3.2", GoVersion: "go1.26.8"}, "v0.3.2"},
		{"a library replaced by a directory: (devel)",
			dep(&debug.Module{Path: ModulePath, Version: "v0.3.1", Replace: &debug.Module{Path: "../toolfind"}}), "", "",
			BuildInfo{Version: "(devel)", GoVersion: "go1.26.8"}, "(devel)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := buildInfo(tc.bi, tc.version, tc.commit)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.str, got.String())
		})
	}
	// No build information at all (a binary built without module support).
	got := buildInfo(nil, "", "")
	assert.Equal(t, "(devel)", got.Version)
	assert.NotEmpty(t, got.GoVersion)
}

// TestBuildUnderTest: a test binary records no version; Version is Build's.
func TestBuildUnderTest(t *testing.T) {
	assert.Equal(t, "(devel)", Build().Version)
	assert.Equal(t, Build().Version, Version)
}
