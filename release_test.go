package toolfind

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// TestReleaseConfig: .goreleaser.yaml builds the one binary for linux,
// darwin and windows on amd64 and arm64, stamps the variables Build reads
// (a rename here fails the test, not a release), and checksums the
// archives.
func TestReleaseConfig(t *testing.T) {
	data, err := os.ReadFile(".goreleaser.yaml")
	require.NoError(t, err)
	var cfg struct {
		Version int
		Builds  []struct {
			Main    string
			Binary  string
			Goos    []string
			Goarch  []string
			Ldflags []string
		}
		Archives []struct {
			Formats         []string
			FormatOverrides []struct {
				Goos    string
				Formats []string
			} `yaml:"format_overrides"`
			Files []string
		}
		Checksum struct {
			NameTemplate string `yaml:"name_template"`
			Algorithm    string
		}
	}
	require.NoError(t, yaml.Unmarshal(data, &cfg))
	assert.Equal(t, 2, cfg.Version)
	require.Len(t, cfg.Builds, 1)
	b := cfg.Builds[0]
	assert.Equal(t, "./cmd/toolfind", b.Main)
	assert.Equal(t, "toolfind", b.Binary)
	assert.Equal(t, []string{"linux", "darwin", "windows"}, b.Goos)
	assert.Equal(t, []string{"amd64", "arm64"}, b.Goarch)
	ldflags := strings.Join(b.Ldflags, " ")
	assert.Contains(t, ldflags, "-X "+ModulePath+".stampedVersion=v{{ .Version }}")
	assert.Contains(t, ldflags, "-X "+ModulePath+".stampedCommit={{ .FullCommit }}")
	// The variables exist and are strings the linker can set (no
	// initialiser: -X would be overwritten at init).
	stampedVersion, stampedCommit = "", ""
	require.Len(t, cfg.Archives, 1)
	a := cfg.Archives[0]
	assert.Equal(t, []string{"tar.gz"}, a.Formats)
	require.Len(t, a.FormatOverrides, 1)
	assert.Equal(t, "windows", a.FormatOverrides[0].Goos)
	assert.Equal(t, []string{"zip"}, a.FormatOverrides[0].Formats)
	for _, f := range a.Files {
		_, err := os.Stat(f)
		assert.NoError(t, err, "archive file %s", f)
	}
	assert.Equal(t, "checksums.txt", cfg.Checksum.NameTemplate)
	assert.Equal(t, "sha256", cfg.Checksum.Algorithm)
}
