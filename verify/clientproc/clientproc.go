// Package clientproc holds what the runners of `toolfind verify`
// (verify/claudecode, verify/geminicli, verify/copilotcli) share to run a
// user's real client against a catalog, so that each runner keeps only
// what is its client's own (command line, config files, model API):
//
//   - ResolveBinary: the executable a user names. A path with a separator
//     is made absolute against the current folder (every run starts in a
//     throwaway folder, where a relative path names nothing); a bare name
//     is looked up in PATH, as a shell would; "" is the client's usual
//     name on PATH.
//   - Dir: a throwaway folder holding HOME, TMPDIR, an empty work folder
//     and the stub servers' files. Env is a clean environment under it:
//     of the caller's environment only PATH is passed on, so nothing of
//     the user's own configuration is read or changed. Remove deletes it.
//   - WriteStubs and StubArgs: one file per catalog server for the stub
//     MCP server (package verify/mcpstub), and the stub's command line.
//   - API: the plumbing of an emulated model API on 127.0.0.1 (listener,
//     the signal that the answer is in, the first error a request gave).
//   - Run: one client process, in a process group of its own, ended
//     together with everything it started once it exits by itself, once
//     the answer is in and a grace period is over, or when ctx ends.
//   - VersionOutput and FirstRelease: `BINARY --version` in a throwaway
//     folder and the release it prints.
package clientproc

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/verify/mcpstub"
)

// FindBinary returns the executable name on PATH; hint says what to do
// when there is none (e.g. "give --binary").
func FindBinary(name, hint string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("no %s on PATH (%s): %w", name, hint, err)
	}
	return p, nil
}

// ResolveBinary turns the client executable a user names (path) into an
// absolute path (see the package doc); name and hint are the client's
// usual executable and what to do without one (FindBinary).
func ResolveBinary(name, path, hint string) (string, error) {
	switch {
	case path == "":
		return FindBinary(name, hint)
	case !strings.ContainsRune(path, filepath.Separator) && !strings.ContainsRune(path, '/'):
		p, err := exec.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("no %s on PATH: %w", path, err)
		}
		return filepath.Abs(p)
	}
	return filepath.Abs(path)
}

// Dir is one run's throwaway folder: home/ (HOME, with the XDG folders
// under it), tmp/ (TMPDIR), work/ (the client's working folder) and
// servers/ (the stub files).
type Dir struct {
	Path string
}

// NewDir makes a throwaway folder under the system's temporary folder,
// named prefix + a random suffix, with home, tmp, work and servers in it
// and the folders more (paths relative to it, e.g. "home/.claude").
func NewDir(prefix string, more ...string) (*Dir, error) {
	p, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	d := &Dir{Path: p}
	for _, sub := range append([]string{"home", "tmp", "work", "servers"}, more...) {
		if err := os.MkdirAll(filepath.Join(p, filepath.FromSlash(sub)), 0o700); err != nil {
			d.Remove()
			return nil, err
		}
	}
	return d, nil
}

// Home is HOME; Work is the client's working folder.
func (d *Dir) Home() string { return filepath.Join(d.Path, "home") }

// Work is the client's working folder (empty).
func (d *Dir) Work() string { return filepath.Join(d.Path, "work") }

// Join is a path inside the folder.
func (d *Dir) Join(elem ...string) string {
	return filepath.Join(append([]string{d.Path}, elem...)...)
}

// Remove deletes the folder and everything in it.
func (d *Dir) Remove() { _ = os.RemoveAll(d.Path) }

// Env is a clean environment under the folder: PATH from the caller;
// HOME, TMPDIR and the XDG folders (their defaults under HOME, spelt out)
// inside it; a neutral user, locale and terminal.
func (d *Dir) Env() []string {
	home := d.Home()
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"USER=toolfind",
		"LANG=C.UTF-8",
		"TERM=dumb",
		"TMPDIR=" + d.Join("tmp"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
	}
}

// WriteStubs writes each server's stub file, servers/NNN.json in catalog
// order, and returns their paths.
func (d *Dir) WriteStubs(servers []mcpstub.Server) ([]string, error) {
	paths := make([]string, len(servers))
	for i, s := range servers {
		data, err := s.Marshal()
		if err != nil {
			return nil, fmt.Errorf("server %q: %w", s.Name, err)
		}
		paths[i] = d.Join("servers", fmt.Sprintf("%03d.json", i))
		if err := os.WriteFile(paths[i], data, 0o600); err != nil {
			return nil, err
		}
	}
	return paths, nil
}

// StubArgs are the arguments of a stub server's command: those of stub
// (its first word is the program) followed by more (the stub file, …).
func StubArgs(stub []string, more ...string) []string {
	return append(append([]string{}, stub[1:]...), more...)
}

// VersionOutput runs `binary --version` in a throwaway folder (made with
// the folders more; its Env plus what env adds), for at most timeout, and
// returns what it printed.
func VersionOutput(ctx context.Context, binary string, timeout time.Duration, env func(*Dir) []string, more ...string) (string, error) {
	d, err := NewDir("toolfind-verify-version-", more...)
	if err != nil {
		return "", err
	}
	defer d.Remove()
	e := d.Env()
	if env != nil {
		e = append(e, env(d)...)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	x, err := Run(ctx, Cmd{Binary: binary, Args: []string{"--version"}, Dir: d.Work(), Env: e})
	switch {
	case err != nil:
		return "", fmt.Errorf("%s --version: %w", binary, err)
	case ctx.Err() != nil:
		return "", fmt.Errorf("%s --version: %w%s", binary, ctx.Err(), Tail("; stderr: ", x.Stderr))
	case x.Err != nil:
		return "", fmt.Errorf("%s --version: %w%s", binary, x.Err, Tail("; stderr: ", x.Stderr))
	}
	return x.Stdout, nil
}

// FirstRelease is the release number that starts out, what `binary
// --version` printed ("2.1.332 (Claude Code)" → "2.1.332").
func FirstRelease(binary, out string) (string, error) {
	fields := strings.Fields(out)
	if len(fields) == 0 {
		return "", fmt.Errorf("%s --version printed nothing", binary)
	}
	if _, err := search.ParseRelease(fields[0]); err != nil {
		return "", fmt.Errorf("%s --version: %q does not start with a release number", binary, strings.TrimSpace(out))
	}
	return fields[0], nil
}

// Tail is label + the last 300 bytes of s, or "" when s is blank.
func Tail(label, s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if len(s) > 300 {
		s = "…" + s[len(s)-300:]
	}
	return label + s
}
