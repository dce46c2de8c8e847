package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind/internal/safetext"
	"github.com/toolfind/toolfind/internal/userfile"
	"github.com/toolfind/toolfind/search"
)

// loadSurfaceTexts reads a --surface-file: a JSON object keyed by client
// name whose values map text keys to the exact texts to use.
func loadSurfaceTexts(path string) (map[string]search.Texts, error) {
	if path == "" {
		return nil, nil
	}
	b, err := userfile.ReadFile(path)
	if err != nil {
		return nil, badInput(fmt.Errorf("--surface-file: %w", err))
	}
	var m map[string]search.Texts
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, badInput(fmt.Errorf("%s: want {\"client\": {\"key\": \"text\", ...}, ...}: %v", path, err))
	}
	return m, nil
}

// surfaces renders the surface of every selected client whose model
// writes its own search.
func surfaces(sims []search.Simulator, texts map[string]search.Texts) ([]search.Surface, error) {
	var out []search.Surface
	for _, sim := range sims {
		w, ok := sim.(search.Writable)
		if !ok {
			continue
		}
		sf, err := w.Surface(texts[sim.Client().Name])
		if err != nil {
			return nil, badInput(fmt.Errorf("--surface-file: %w", err))
		}
		out = append(out, sf)
	}
	return out, nil
}

func runSurface(cmd *cobra.Command, opts *showOptions) error {
	texts, err := loadSurfaceTexts(opts.surfaceFile)
	if err != nil {
		return err
	}
	cat, err := opts.global.loadCatalog(cmd.Context())
	if err != nil {
		return err
	}
	sims, err := opts.global.simulators(cat)
	if err != nil {
		return err
	}
	sfs, err := surfaces(sims, texts)
	if err != nil {
		return err
	}
	for _, sim := range sims {
		if search.SearchesNothing(sim) && opts.format == "text" {
			if _, ok := sim.(search.Outliner); ok {
				// VS Code: flat tools and activate_* stubs, not every tool.
				fmt.Fprintf(opts.io.Out, "# %s: the model never searches: it gets tools and stubs up front (show without --surface lists them)\n\n", sim.Client())
			} else {
				fmt.Fprintf(opts.io.Out, "# %s: the model never searches: every tool is loaded up front\n\n", sim.Client())
			}
		}
	}
	if opts.format == "json" {
		enc := json.NewEncoder(opts.io.Out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if sfs == nil {
			sfs = []search.Surface{}
		}
		return enc.Encode(map[string]any{"surfaces": sfs})
	}
	for i, sf := range sfs {
		if i > 0 {
			fmt.Fprintln(opts.io.Out)
		}
		// What the model reads is a multi-line block: line breaks and tabs
		// are layout, every other control is escaped.
		if _, err := fmt.Fprint(opts.io.Out, safetext.Block(sf.Text())); err != nil {
			return err
		}
	}
	return nil
}
