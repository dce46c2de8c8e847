package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/corpus/live/remote"
	"github.com/toolfind/toolfind/corpus/live/snap"
)

// sourceOptions say where tools come from besides --catalog files: live
// MCP servers over stdio (--server) and streamable HTTP (--url).
type sourceOptions struct {
	servers []string
	urls    []string
	headers []string
	timeout time.Duration
	// configs are client configuration files (--config), configFormat
	// forces their format; cfg is what they hold, read once.
	configs      []string
	configFormat string
	cfg          *configSources
	errOut       io.Writer
}

func addSourceFlags(root *cobra.Command, s *sourceOptions) {
	pf := root.PersistentFlags()
	pf.StringArrayVar(&s.servers, "server", nil,
		"live MCP server over stdio: `'[NAME=]CMD ARGS'` (shell-style quotes, no expansion; the name defaults to the server's serverInfo.name); repeatable")
	pf.StringArrayVar(&s.urls, "url", nil, "live MCP server over streamable HTTP: `[NAME=]URL`; repeatable")
	pf.StringArrayVar(&s.headers, "header", nil, "HTTP header `KEY:VALUE` for every --url server (e.g. 'Authorization: Bearer …'); repeatable")
	pf.StringArrayVar(&s.configs, "config", nil,
		"`FILE`: start the MCP servers of a client's configuration and simulate that client with its settings (tool filters, trust, servers switched off): Claude Code .mcp.json or ~/.claude.json, claude_desktop_config.json, Codex config.toml, Gemini CLI settings.json, VS Code mcp.json, Copilot CLI mcp-config.json, opencode.json; repeatable")
	pf.StringVar(&s.configFormat, "config-format", "", "format of the --config files when their name does not tell: claude-code, claude-desktop, codex, gemini, vscode, copilot, opencode")
	pf.DurationVar(&s.timeout, "timeout", snap.DefaultTimeout, "time limit for each phase of a live server: start and handshake, then tools/list with all its pages")
}

// live reports whether any live server was named.
func (s *sourceOptions) live() bool {
	if len(s.servers)+len(s.urls) > 0 {
		return true
	}
	for _, c := range s.configs {
		if !isLintConfig(c) {
			return true
		}
	}
	return false
}

// sources parses the live-server flags (usage errors, exit 2).
func (s *sourceOptions) sources() ([]snap.Source, error) {
	if s.timeout <= 0 {
		return nil, usageError("--timeout %s: must be more than 0", s.timeout)
	}
	if len(s.headers) > 0 && len(s.urls) == 0 {
		return nil, usageError("--header applies to --url servers; there is none")
	}
	header := snap.Header{}
	for _, h := range s.headers {
		k, v, err := snap.ParseHeader(h)
		if err != nil {
			return nil, usageError("%v", err)
		}
		header.Add(k, v)
	}
	var srcs []snap.Source
	for _, spec := range s.servers {
		src, err := snap.ParseServer(spec)
		if err != nil {
			return nil, usageError("%v", err)
		}
		srcs = append(srcs, src)
	}
	for _, spec := range s.urls {
		src, err := snap.ParseURL(spec)
		if err != nil {
			return nil, usageError("%v", err)
		}
		src.Header = header
		srcs = append(srcs, src)
	}
	return srcs, nil
}

// snapshots runs every live server named by the flags. A server that cannot
// be reached or answers wrongly is exit code 3, its message naming the
// phase (start, handshake, list, parse).
func (s *sourceOptions) snapshots(ctx context.Context) ([]*snap.Snapshot, error) {
	if _, err := s.sources(); err != nil {
		return nil, err // flag mistakes before starting anything
	}
	errOut := s.errOut
	if errOut == nil {
		errOut = io.Discard
	}
	cs, err := s.readConfigs(errOut)
	if err != nil {
		return nil, err
	}
	var snaps []*snap.Snapshot
	if len(s.servers)+len(s.urls) > 0 {
		if snaps, err = s.flagSnapshots(ctx); err != nil {
			return nil, err
		}
	}
	fromConfig, err := s.takeConfig(ctx, cs)
	if err != nil {
		return nil, err
	}
	return append(snaps, fromConfig...), nil
}

// flagSnapshots runs the --server and --url servers.
func (s *sourceOptions) flagSnapshots(ctx context.Context) ([]*snap.Snapshot, error) {
	srcs, err := s.sources()
	if err != nil {
		return nil, err
	}
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	snaps, err := c.TakeAll(ctx, srcs, s.options())
	if err != nil {
		return nil, liveError(headerHint(s.headers, err))
	}
	return snaps, nil
}

// liveChildName names toolfind's live-server child in errors.
const liveChildName = "toolfind's live-server process"

// client talks to the servers through toolfind's own child (childLive),
// started at the first request.
func (s *sourceOptions) client() (*remote.Client, error) {
	exe, env, err := childProgram(childLive)
	if err != nil {
		return nil, err
	}
	return remote.New(remote.Config{Program: exe, Name: liveChildName, Env: env})
}

// options are the live servers' options for the live-server child.
func (s *sourceOptions) options() remote.Options {
	return remote.Options{Timeout: s.timeout, ClientVersion: toolfind.Version}
}

// load reads the catalog files and the live servers, merged and validated
// as one catalog: files first, in flag order, then --server and --url
// servers. With neither it is the embedded demo catalog.
func (s *sourceOptions) load(ctx context.Context, catalogs []string, progress func(done int64)) (*corpus.Catalog, error) {
	// The files are read, not mapped: a file truncated during the run
	// (an editor saving, git checkout) would kill toolfind with SIGBUS.
	var opts corpus.LoadOptions
	if progress != nil {
		opts.Progress = func(done, total int64) { progress(done) }
	}
	if !s.live() {
		if len(catalogs) == 0 {
			return corpus.Demo(), nil
		}
		cat, err := corpus.LoadWith(opts, catalogs...)
		if err != nil {
			return nil, badInput(err)
		}
		return cat, nil
	}
	if _, err := s.sources(); err != nil {
		return nil, err // flag mistakes before starting anything
	}
	var base *corpus.Catalog
	if len(catalogs) > 0 {
		var err error
		if base, err = corpus.LoadWith(opts, catalogs...); err != nil {
			return nil, badInput(err)
		}
	}
	snaps, err := s.snapshots(ctx)
	if err != nil {
		return nil, err
	}
	cat, err := snap.Merge(base, snaps)
	if err != nil {
		return nil, badInput(fmt.Errorf("merging live servers: %w", err))
	}
	s.cfg.setOthers(cat)
	return cat, nil
}
