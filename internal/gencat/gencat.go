// Package gencat writes large synthetic MCP catalogs for benchmarks and
// scale tests, so no such file is ever committed: Write(w, 100_000, 1)
// gives the same 100,000 tools on every machine.
//
// The tools look like real ones in the proportions that matter to the
// simulators: 1,000 tools per server, snake_case names of two to four
// words from a fixed vocabulary with a serial number (so names are unique),
// descriptions of 12 to 60 words (one in fifty over 2,048 characters, to
// exercise the cuts), input schemas of one to eight properties with types,
// descriptions, enums and required lists, and now and then a search hint,
// annotations or an output schema. The average tool is about 0.95 kB of
// JSON (the shared catalogs average 1.9 kB).
package gencat

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// PerServer is the number of tools per server.
const PerServer = 1000

var verbs = strings.Fields(`get list create update delete search find add remove set fetch sync export import
	archive restore move copy rename merge close open assign approve reject cancel schedule send publish query`)

var nouns = strings.Fields(`invoice customer account order payment ticket issue comment user group role project
	repository branch commit file folder document page database table record report dashboard alert
	metric log event message channel meeting calendar task note contact lead deal product price
	subscription plan quota cluster pod node secret key policy rule device network bucket`)

var fillers = strings.Fields(`the a of for to in with by from and or that this each all new existing given
	current selected specified optional required matching recent active when if returns results details
	information data value values field fields identifier status type name description owner team
	workspace organization region time date range limit page cursor filter sort order format`)

// Write writes a catalog of n tools as {"servers": [...]} JSON, the same
// for the same n and seed.
func Write(w io.Writer, n int, seed uint64) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	r := rand.New(rand.NewPCG(seed, 0x70617468))
	bw.WriteString(`{"servers":[`)
	for i := 0; i < n; i++ {
		if i%PerServer == 0 {
			if i > 0 {
				bw.WriteString("]},")
			}
			fmt.Fprintf(bw, "\n{\"name\":\"srv%03d_%s\",\"instructions\":\"Tools for %s.\",\"tools\":[", i/PerServer, pick(r, nouns), pick(r, nouns))
		} else {
			bw.WriteByte(',')
		}
		bw.WriteString("\n")
		if err := writeTool(bw, r, i); err != nil {
			return err
		}
	}
	if n > 0 {
		bw.WriteString("]}")
	}
	bw.WriteString("\n]}\n")
	return bw.Flush()
}

func writeTool(w *bufio.Writer, r *rand.Rand, i int) error {
	words := []string{pick(r, verbs)}
	for k := 1 + r.IntN(3); k > 0; k-- {
		words = append(words, pick(r, nouns))
	}
	name := fmt.Sprintf("%s_%d", strings.Join(words, "_"), i)
	descWords := 12 + r.IntN(49)
	if r.IntN(50) == 0 {
		descWords = 400
	}
	desc := sentence(r, words, descWords)
	props := map[string]any{}
	var order []string
	var required []string
	for k := 1 + r.IntN(8); k > 0; k-- {
		key := pick(r, nouns) + "_" + pick(r, []string{"id", "name", "type", "limit", "query", "status", "at"})
		if _, dup := props[key]; dup {
			continue
		}
		p := map[string]any{"type": pick(r, []string{"string", "string", "integer", "boolean", "number"}),
			"description": sentence(r, nil, 4+r.IntN(12))}
		if r.IntN(6) == 0 {
			p["enum"] = []string{pick(r, fillers), pick(r, nouns), pick(r, verbs)}
		}
		props[key] = p
		order = append(order, key)
		if r.IntN(3) == 0 {
			required = append(required, key)
		}
	}
	var b strings.Builder
	b.WriteString(`{"name":`)
	writeJSON(&b, name)
	b.WriteString(`,"description":`)
	writeJSON(&b, desc)
	b.WriteString(`,"inputSchema":{"type":"object","properties":{`)
	for k, key := range order {
		if k > 0 {
			b.WriteByte(',')
		}
		writeJSON(&b, key)
		b.WriteByte(':')
		writeJSON(&b, props[key])
	}
	b.WriteString("}")
	if len(required) > 0 {
		b.WriteString(`,"required":`)
		writeJSON(&b, required)
	}
	b.WriteString("}")
	if r.IntN(10) == 0 {
		b.WriteString(`,"annotations":{"readOnlyHint":true}`)
	}
	if r.IntN(20) == 0 {
		b.WriteString(`,"_meta":{"anthropic/searchHint":`)
		writeJSON(&b, pick(r, nouns)+" "+pick(r, verbs))
		b.WriteString("}")
	}
	if r.IntN(25) == 0 {
		b.WriteString(`,"outputSchema":{"type":"object","properties":{"result":{"type":"string"}}}`)
	}
	b.WriteString("}")
	_, err := w.WriteString(b.String())
	return err
}

func sentence(r *rand.Rand, start []string, n int) string {
	ws := append([]string(nil), start...)
	for len(ws) < n {
		switch r.IntN(4) {
		case 0:
			ws = append(ws, pick(r, nouns))
		case 1:
			ws = append(ws, pick(r, verbs))
		default:
			ws = append(ws, pick(r, fillers))
		}
	}
	s := strings.Join(ws, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// WriteDir writes the same n tools as Write, one catalog file per server
// ({"server": NAME, "tools": [...]}, PerServer tools each) into dir, so a
// large catalog stays under toolfind's per-file limit
// (corpus.MaxCatalogBytes).
func WriteDir(dir string, n int, seed uint64) error {
	var buf bytes.Buffer
	if err := Write(&buf, n, seed); err != nil {
		return err
	}
	var all struct {
		Servers []struct {
			Name         string            `json:"name"`
			Instructions string            `json:"instructions"`
			Tools        []json.RawMessage `json:"tools"`
		} `json:"servers"`
	}
	if err := json.Unmarshal(buf.Bytes(), &all); err != nil {
		return err
	}
	for i, s := range all.Servers {
		var b bytes.Buffer
		fmt.Fprintf(&b, "{\"server\":%q,\"instructions\":%q,\"tools\":[", s.Name, s.Instructions)
		for k, t := range s.Tools {
			if k > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n")
			b.Write(t)
		}
		b.WriteString("\n]}\n")
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d.json", i)), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func pick(r *rand.Rand, list []string) string { return list[r.IntN(len(list))] }

func writeJSON(b *strings.Builder, v any) {
	data, _ := json.Marshal(v) // maps of strings: sorted keys, never an error
	b.Write(data)
}
