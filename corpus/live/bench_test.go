package live

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/toolfind/toolfind/corpus"
)

// benchCatalogs are the demo catalog and the 15 shared catalogs merged
// (1,111 tools), each as one snapshot per server.
func benchCatalogs(b *testing.B) map[string][]*Snapshot {
	out := map[string][]*Snapshot{"demo": snapshotsOf(corpus.Demo())}
	shared, err := corpus.Load(filepath.Join("..", "..", "..", "shared", "catalogs"))
	if err != nil {
		b.Logf("shared catalogs not loaded (%v); benchmarking the demo only", err)
		return out
	}
	out["shared"] = snapshotsOf(shared)
	return out
}

func snapshotsOf(cat *corpus.Catalog) []*Snapshot {
	var snaps []*Snapshot
	for _, s := range cat.Servers {
		snap := &Snapshot{Source: Source{Name: s.Name, URL: "http://bench/" + s.Name}, Name: s.Name,
			Instructions: s.Instructions, HasInstructions: s.Instructions != ""}
		for _, t := range s.Tools {
			snap.Tools = append(snap.Tools, t.Raw)
		}
		snaps = append(snaps, snap)
	}
	return snaps
}

// BenchmarkWriteCatalog: assembling and indenting the snapshot file.
func BenchmarkWriteCatalog(b *testing.B) {
	for name, snaps := range benchCatalogs(b) {
		b.Run(name, func(b *testing.B) {
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				if err := WriteCatalog(&buf, snaps); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(buf.Len()))
		})
	}
}

// BenchmarkMerge: turning snapshots into a validated corpus catalog (what
// --server costs on top of talking to the server).
func BenchmarkMerge(b *testing.B) {
	for name, snaps := range benchCatalogs(b) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Merge(nil, snaps); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTakeHTTP: a whole session against a local streamable-HTTP
// server that lists every tool of the catalog in one page — handshake,
// tools/list, the tap and the SDK decoding it, shutdown.
func BenchmarkTakeHTTP(b *testing.B) {
	for name, snaps := range benchCatalogs(b) {
		var all []json.RawMessage
		for _, s := range snaps {
			all = append(all, s.Tools...)
		}
		page, _ := json.Marshal(map[string]any{"tools": all})
		ts := httptest.NewServer(rawHandler(rawInit, `{"jsonrpc":"2.0","id":ID,"result":`+string(page)+`}`))
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				snap, err := Take(context.Background(), Source{URL: ts.URL}, Options{})
				if err != nil {
					b.Fatal(err)
				}
				if len(snap.Tools) != len(all) {
					b.Fatalf("%d tools, want %d", len(snap.Tools), len(all))
				}
			}
		})
		ts.Close()
	}
}

// BenchmarkSSE: the tap's event-stream parser over a tools/list event.
func BenchmarkSSE(b *testing.B) {
	for name, snaps := range benchCatalogs(b) {
		var all []json.RawMessage
		for _, s := range snaps {
			all = append(all, s.Tools...)
		}
		page, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "result": map[string]any{"tools": all}})
		body := append(append([]byte("event: message\ndata: "), page...), "\n\n"...)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				n := 0
				p := sseParser{onData: func([]byte) { n++ }}
				r := bytes.NewReader(body)
				buf := make([]byte, 32<<10)
				for {
					k, err := r.Read(buf)
					p.write(buf[:k])
					if err == io.EOF {
						break
					}
				}
				p.end()
				if n != 1 {
					b.Fatal(n)
				}
			}
		})
	}
}

var _ http.Handler = rawHandler("", "")
