package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestVersionOfTaggedCheckout: `go install ./cmd/toolfind` in a checkout
// of the tag v0.0.0-test prints that tag and the commit, `go install
// github.com/toolfind/toolfind/cmd/toolfind@v0.0.0-test` that tag alone (Go stamps the
// main module's version from the VCS tag since 1.24, when -buildvcs is
// on: this machine's GOFLAGS turns it off, so the test turns it on as a
// user's default does); with an uncommitted change the version is
// "+dirty" and modified is true. The checkout is the working tree as it
// is (tracked and untracked files), committed into a fresh repository.
func TestVersionOfTaggedCheckout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the toolfind binary three times")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	root := strings.TrimSpace(string(top))
	src := filepath.Join(t.TempDir(), "toolfind")
	list, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	require.NoError(t, err)
	for _, name := range strings.Split(strings.TrimSuffix(string(list), "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(root, name))
		if os.IsNotExist(err) {
			continue // deleted in the working tree
		}
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(src, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(src, name), data, 0o644))
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", src, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %q\n%s", args, out)
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "snapshot")
	git("tag", "v0.0.0-test")
	commit := git("rev-parse", "HEAD")

	bin := t.TempDir()
	gobuild := func(args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = src
		// -trimpath shares the build cache with the checkout under test.
		cmd.Env = append(os.Environ(), "GOBIN="+bin, "GOWORK=off", "GOFLAGS=-trimpath -buildvcs=true")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %q\n%s", args, out)
	}
	version := func(exe string) (text string, v struct {
		Version  string `json:"version"`
		Commit   string `json:"commit"`
		Modified bool   `json:"modified"`
	}) {
		t.Helper()
		var stdout bytes.Buffer
		cmd := exec.Command(exe, "version", "--format", "json")
		cmd.Stdout = &stdout
		require.NoError(t, cmd.Run())
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &v), stdout.String())
		out, err := exec.Command(exe, "--version").Output()
		require.NoError(t, err)
		return string(out), v
	}

	gobuild("install", "./cmd/toolfind")
	text, v := version(filepath.Join(bin, "toolfind"))
	assert.Equal(t, "v0.0.0-test", v.Version)
	assert.Equal(t, commit, v.Commit)
	assert.False(t, v.Modified)
	assert.True(t, strings.HasPrefix(text, "toolfind v0.0.0-test (commit "+commit[:12]+", "), text)

	// go install …@v0.0.0-test: the module from a proxy (a file:// one
	// holding the checkout as the module's zip; the others from this
	// machine's module cache, itself a proxy's layout), into a fresh
	// module cache. The version is the one asked for; no VCS, no commit.
	modcache := strings.TrimSpace(goEnv(t, "GOMODCACHE"))
	proxy := moduleProxy(t, src, "v0.0.0-test")
	cmd := exec.Command("go", "install", "github.com/toolfind/toolfind/cmd/toolfind@v0.0.0-test")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOBIN="+filepath.Join(bin, "proxy"), "GOWORK=off", "GOFLAGS=-trimpath -modcacherw",
		"GOMODCACHE="+filepath.Join(t.TempDir(), "mod"), "GOSUMDB=off", "GONOSUMDB=", "GOPRIVATE=",
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(filepath.Join(modcache, "cache", "download")))
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go install @v0.0.0-test\n%s", out)
	text, v = version(filepath.Join(bin, "proxy", "toolfind"))
	assert.Equal(t, "v0.0.0-test", v.Version)
	assert.Empty(t, v.Commit)
	assert.Equal(t, "toolfind v0.0.0-test\n", text)

	require.NoError(t, os.WriteFile(filepath.Join(src, "untracked.txt"), []byte("x"), 0o644))
	gobuild("build", "-o", filepath.Join(bin, "dirty"), "./cmd/toolfind")
	text, v = version(filepath.Join(bin, "dirty"))
	assert.Equal(t, "v0.0.0-test+dirty", v.Version)
	assert.Equal(t, commit, v.Commit)
	assert.True(t, v.Modified)
	assert.True(t, strings.HasSuffix(text, ", modified)\n"), text)
}

func goEnv(t *testing.T, key string) string {
	t.Helper()
	out, err := exec.Command("go", "env", key).Output()
	require.NoError(t, err)
	return string(out)
}

// moduleProxy writes a GOPROXY directory serving the module in dir at
// version: its list, .info, .mod and .zip (the module's files under
// "path@version/", without nested modules, as the go command packs
// them).
func moduleProxy(t *testing.T, dir, version string) string {
	t.Helper()
	proxy := t.TempDir()
	at := filepath.Join(proxy, "github.com", "toolfind", "toolfind", "@v")
	require.NoError(t, os.MkdirAll(at, 0o755))
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(at, "list"), []byte(version+"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(at, version+".info"), []byte(`{"Version":"`+version+`","Time":"2026-12-03T00:00:00Z"}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(at, version+".mod"), mod, 0o644))
	f, err := os.Create(filepath.Join(at, version+".zip"))
	require.NoError(t, err)
	zw := zip.NewWriter(f)
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if rel == ".git" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil && rel != "." {
				return filepath.SkipDir // another module
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		w, err := zw.Create("github.com/toolfind/toolfind@" + version + "/" + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}))
	require.NoError(t, zw.Close())
	require.NoError(t, f.Close())
	return proxy
}
