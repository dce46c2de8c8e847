package corpus

import (
	"bytes"
	"embed"
)

//go:embed demo/catalog.json demo/queries.jsonl
var demoFS embed.FS

// DemoCatalogName and DemoQueriesName are the names the embedded demo's
// files carry in diagnostics and errors.
const (
	DemoCatalogName = "demo/catalog.json"
	DemoQueriesName = "demo/queries.jsonl"
)

// Demo returns the embedded demo catalog: the seed example's servers
// accounts and billing (claude spec §4) plus three small servers of our own
// (tickets, weather, files). Each call returns a fresh copy.
func Demo() *Catalog {
	cat, err := LoadFS(demoFS, DemoCatalogName)
	if err != nil {
		panic("corpus: embedded demo catalog is broken: " + err.Error())
	}
	return cat
}

// DemoQueries returns the embedded demo query set, resolved against cat
// (normally Demo()).
func DemoQueries(cat *Catalog) (*QuerySet, error) {
	data, err := demoFS.ReadFile(DemoQueriesName)
	if err != nil {
		return nil, err
	}
	return ParseQueries(DemoQueriesName, bytes.NewReader(data), cat)
}
