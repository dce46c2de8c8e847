package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/corpus"
)

// sourceOptions say where tools come from besides --catalog files.
type sourceOptions struct{}

func addSourceFlags(root *cobra.Command, s *sourceOptions) {}

// load reads the catalog files (the embedded demo when there are none).
func (s *sourceOptions) load(ctx context.Context, catalogs []string) (*corpus.Catalog, error) {
	cat, err := toolfind.LoadCatalog(catalogs...)
	if err != nil {
		return nil, badInput(err)
	}
	return cat, nil
}
