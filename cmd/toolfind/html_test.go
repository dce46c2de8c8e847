package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// benchHTML writes `bench --format html` with args to a file and returns
// its text.
func benchHTML(t *testing.T, args ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "report.html")
	_, errOut, code := run(t, append([]string{"bench", "--format", "html", "--out", out, "--quiet"}, args...)...)
	require.Equal(t, 0, code, errOut)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	return string(data)
}

// TestHTMLReportStructure: a breakdown has one row per tag value (the
// demo's 4 categories; it had one per value and client, 91 rows for 12
// prompts), and every table sits in a box that scrolls sideways on its
// own, so the page never does.
func TestHTMLReportStructure(t *testing.T) {
	page := benchHTML(t, "--writer", "heuristic,verbatim", "--by", "category", "--per-tool")
	by := page[strings.Index(page, `<h2 id="by-0">`):strings.Index(page, `<h2 id="per-tool">`)]
	assert.Equal(t, 1+4, strings.Count(by, "<tr>"), "header + billing, files, support, weather:\n%s", by)
	assert.Contains(t, by, `<td class="l mono">billing</td><td>5</td>`)
	assert.Contains(t, by, `title="claude@2.1.332: found@1 80.0%, found@limit 100.0%, MRR 0.850, not found 0 of 5"`)
	tables := regexp.MustCompile(`<table[ >]`).FindAllStringIndex(page, -1)
	wrapped := regexp.MustCompile(`<div class="wide"><table[ >]`).FindAllStringIndex(page, -1)
	assert.Len(t, wrapped, len(tables))
	// A tooltip lists at most 3 tools outranking the expected one.
	for _, m := range regexp.MustCompile(`(?:outranked by|shown instead:) ([^"]*)"`).FindAllStringSubmatch(page, -1) {
		list, _, _ := strings.Cut(m[1], " and ")
		assert.LessOrEqual(t, strings.Count(list, ", ")+1, 3, m[0])
	}
}

// TestHTMLReportAzureSize: the azure-e2e report (739 queries over 1,049
// tools) stays under 1 MB; it was 4.4 MB, most of it tooltips listing a
// catalog dump's whole catalog.
func TestHTMLReportAzureSize(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates every client over 739 queries")
	}
	cat := sharedDir(t, "catalogs", "azure.json")
	qs := sharedDir(t, "corpora", "azure-e2e", "queries.jsonl")
	page := benchHTML(t, "--catalog", cat, "--queries", qs)
	assert.Less(t, len(page), 1<<20)
	assert.Equal(t, 1+739, strings.Count(page[strings.Index(page, `<h2 id="heatmap">`):], "<tr>"))
}

// TestHTMLReportFitsChromium: in headless Chromium at 1,400 pixels the
// report with baseline rows, a breakdown and the per-tool view does not
// overflow sideways (it was 4,541 pixels wide on azure-e2e). Skipped when
// no Chromium is installed.
func TestHTMLReportFitsChromium(t *testing.T) {
	var browser string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("no Chromium on PATH: the layout check needs a browser")
	}
	page := benchHTML(t, "--writer", "heuristic,verbatim", "--by", "category", "--per-tool")
	// The page's own width, as the title, which --dump-dom prints.
	page = strings.Replace(page, "</body>", `<script>document.title="width="+document.documentElement.scrollWidth</script></body>`, 1)
	file := filepath.Join(t.TempDir(), "probe.html")
	require.NoError(t, os.WriteFile(file, []byte(page), 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir="+t.TempDir(),
		"--window-size=1400,900", "--dump-dom", "file://"+file).Output()
	require.NoError(t, err)
	m := regexp.MustCompile(`<title>width=(\d+)</title>`).FindSubmatch(out)
	require.NotNil(t, m, "no width in the page Chromium printed")
	width, _ := strconv.Atoi(string(m[1]))
	assert.LessOrEqual(t, width, 1400)
}
