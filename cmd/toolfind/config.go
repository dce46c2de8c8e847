package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolfind/toolfind/clientconfig"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/corpus/live/snap"
	"github.com/toolfind/toolfind/search"
)

// configSources are the servers of the --config files: parsed once, then
// started with the --server and --url servers.
type configSources struct {
	files  []*clientconfig.Config
	starts []configStart
	// others are the catalog's servers that no --config file defines
	// (set once the catalog is loaded).
	others []string
}

// configStart is one server to start and the file that defines it.
type configStart struct {
	file   *clientconfig.Config
	server *clientconfig.Server
}

// isLintConfig reports whether a --config file is toolfind's own lint
// configuration (.toolfind.yaml), which lint reads, and no client's.
func isLintConfig(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".yaml" || ext == ".yml"
}

// readConfigs parses the --config files (bad input, exit 2) and writes
// their notes on errOut.
func (s *sourceOptions) readConfigs(errOut io.Writer) (*configSources, error) {
	if s.cfg != nil || len(s.configs) == 0 {
		return s.cfg, nil
	}
	var format clientconfig.Format
	if s.configFormat != "" {
		f, err := clientconfig.ParseFormat(s.configFormat)
		if err != nil {
			return nil, usageError("--config-format: %v", err)
		}
		format = f
	}
	cs := &configSources{}
	for _, path := range s.configs {
		if isLintConfig(path) {
			continue
		}
		c, err := clientconfig.Load(path, clientconfig.Options{Format: format})
		if err != nil {
			return nil, badInput(fmt.Errorf("--config: %w", err))
		}
		starts, notes, err := c.Start()
		if err != nil {
			return nil, badInput(fmt.Errorf("--config: %w", err))
		}
		for _, n := range append(c.Notes, notes...) {
			fmt.Fprintf(errOut, "toolfind: note: %s\n", c.Redact(n))
		}
		for _, srv := range starts {
			for _, st := range cs.starts {
				if st.server.Key == srv.Key {
					return nil, badInput(fmt.Errorf("--config: server %q is defined in %s (%s) and in %s (%s): keep one", srv.Key, st.file.Path, st.server.Field, c.Path, srv.Field))
				}
			}
			cs.starts = append(cs.starts, configStart{c, srv})
		}
		cs.files = append(cs.files, c)
	}
	s.cfg = cs
	return cs, nil
}

// takeConfig starts the --config servers. A failure names the file, the
// server's key and field, and the phase; no env or header value shows.
func (s *sourceOptions) takeConfig(ctx context.Context, cs *configSources) ([]*snap.Snapshot, error) {
	if cs == nil || len(cs.starts) == 0 {
		return nil, nil
	}
	srcs := make([]snap.Source, len(cs.starts))
	for i, st := range cs.starts {
		srcs[i] = st.server.Source()
	}
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	snaps, err := c.TakeAll(ctx, srcs, s.options())
	if err != nil {
		return nil, liveError(cs.failure(err))
	}
	for i, sn := range snaps {
		// Catalog sources and diagnostics show the server as written.
		sn.Source = cs.starts[i].server.Label()
	}
	return snaps, nil
}

// configError is a --config server's failure: the snapshot error (for
// its phase and cause) with a message that names the file and server and
// holds no secret.
type configError struct {
	msg string
	err error
}

func (e *configError) Error() string { return e.msg }
func (e *configError) Unwrap() error { return e.err }

func (cs *configSources) failure(err error) error {
	phase, _ := snap.PhaseOf(err)
	for _, st := range cs.starts {
		if strings.HasPrefix(err.Error(), "live server "+st.server.Key+" (") {
			return &configError{err: err, msg: fmt.Sprintf("%s: %s: the server failed in the %s phase: %s",
				st.file.Path, st.server.Field, phase, st.file.Redact(err.Error()))}
		}
	}
	msg := err.Error()
	for _, c := range cs.files {
		msg = c.Redact(msg)
	}
	return &configError{err: err, msg: msg}
}

// view is the catalog as one client sees it under the --config files.
func (cs *configSources) view(client search.ClientID, cat *corpus.Catalog) *corpus.Catalog {
	if cs == nil {
		return cat
	}
	for _, c := range cs.files {
		cat = c.View(client.Name, cat)
	}
	return cat
}

// setOthers records the catalog's servers that no --config file starts.
func (cs *configSources) setOthers(cat *corpus.Catalog) {
	if cs == nil {
		return
	}
	cs.others = nil
	for _, srv := range cat.Servers {
		if !slices.ContainsFunc(cs.starts, func(st configStart) bool { return st.server.Key == srv.Name }) {
			cs.others = append(cs.others, srv.Name)
		}
	}
}

// options are the client options the --config files set (Gemini CLI's
// trusted servers), by client name.
func (cs *configSources) options() map[string]map[string]string {
	if cs == nil {
		return nil
	}
	out := map[string]map[string]string{}
	for _, c := range cs.files {
		for client, o := range c.ClientOptions(cs.others) {
			if out[client] == nil {
				out[client] = map[string]string{}
			}
			for k, v := range o {
				out[client][k] = v
			}
		}
	}
	return out
}
