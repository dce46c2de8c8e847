//go:build !unix

package corpus

// mapCatalogFile reads the file: mapping is for Unix (LoadOptions.MapFiles).
func mapCatalogFile(path string) ([]byte, error) { return readCatalogFile(path) }
