package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolfind/toolfind/search"
	"github.com/toolfind/toolfind/writer"
	"github.com/toolfind/toolfind/writer/calib"
)

// clientOf is the client profile each family's calls are replayed with.
var clientOf = map[string]string{"claude": "claude@2.1.332", "grok": "grok@1.0.0", "codex": "codex@0.171.0", "copilot": "copilot@1.0.102"}

// checkCall checks a call's shape the way the client's Replay reads it
// first (search.QueryCall, or exec's code string).
func checkCall(fam string, call json.RawMessage) error {
	switch fam {
	case "claude":
		q, err := search.QueryCall(call, "max_results")
		if err == nil && strings.TrimSpace(q.Text) == "" {
			err = errors.New("call: empty query")
		}
		return err
	case "grok":
		q, err := search.QueryCall(call, "limit")
		if err == nil && strings.TrimSpace(q.Text) == "" {
			err = errors.New("call: empty query")
		}
		if err == nil && q.Limit > 255 {
			err = fmt.Errorf("call: limit %d is not a u8", q.Limit)
		}
		return err
	case "codex":
		m, err := search.CallObject(call)
		if err != nil {
			return err
		}
		code, err := search.CallString(m, "code", true)
		if err == nil && strings.TrimSpace(code) == "" {
			err = errors.New("call: empty code")
		}
		return err
	case "copilot":
		// tool_search_tool's schema: pattern, a string of at most 200
		// characters, and an optional integer limit (copilot.md §1.1).
		m, err := search.CallObject(call)
		if err != nil {
			return err
		}
		p, err := search.CallString(m, "pattern", true)
		if err == nil && strings.TrimSpace(p) == "" {
			err = errors.New("call: empty pattern")
		}
		if err == nil && utf8.RuneCountInString(p) > 200 {
			err = fmt.Errorf("call: pattern of %d characters (at most 200)", utf8.RuneCountInString(p))
		}
		if err == nil {
			_, err = search.CallInt(m, "limit")
		}
		return err
	}
	return fmt.Errorf("unknown family %q", fam)
}

// ingestBatch validates one batch's answers against its key and returns
// the joined lines and the problems found (each dropping a line or
// naming a missing prompt).
func ingestBatch(batch, outFile string, keys []calib.Key) ([]writer.Line, []string, error) {
	data, err := os.ReadFile(outFile)
	if err != nil {
		return nil, nil, err
	}
	byID := map[string]calib.Key{}
	for _, k := range keys {
		byID[k.ID] = k
	}
	var lines []writer.Line
	var bad []string
	seen := map[string]bool{}
	for n, raw := range strings.Split(string(data), "\n") {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			continue
		}
		where := fmt.Sprintf("%s:%d", filepath.Base(outFile), n+1)
		var a struct {
			ID   string          `json:"id"`
			Call json.RawMessage `json:"call"`
		}
		if err := json.Unmarshal([]byte(raw), &a); err != nil {
			bad = append(bad, fmt.Sprintf("%s: not a JSON object {id, call}: %v", where, err))
			continue
		}
		k, ok := byID[a.ID]
		switch {
		case !ok:
			bad = append(bad, fmt.Sprintf("%s: id %q is not a prompt of the batch", where, a.ID))
			continue
		case seen[a.ID]:
			bad = append(bad, fmt.Sprintf("%s: id %q answered twice (first kept)", where, a.ID))
			continue
		}
		if err := checkCall(k.Client, a.Call); err != nil {
			bad = append(bad, fmt.Sprintf("%s: id %s: %v", where, a.ID, err))
			continue
		}
		seen[a.ID] = true
		var c bytes.Buffer
		json.Compact(&c, a.Call)
		tags := map[string]json.RawMessage{}
		put := func(key string, v any) {
			b, _ := json.Marshal(v)
			tags[key] = b
		}
		put("batch", batch)
		put("setup", k.Setup)
		put("corpus", k.Corpus)
		put("line", k.Line)
		if k.Tool != "" {
			put("tool", k.Tool)
		}
		lines = append(lines, writer.Line{ID: batch + "/" + k.ID, Prompt: k.Text, Client: clientOf[k.Client],
			Call: c.Bytes(), Expect: k.Expect, Writer: "model-blind", Tags: tags})
	}
	for _, k := range keys {
		if !seen[k.ID] {
			bad = append(bad, fmt.Sprintf("%s: id %s has no valid answer", batch, k.ID))
		}
	}
	return lines, bad, nil
}

func runIngest(args []string) error {
	fs := flag.NewFlagSet("ingest", flag.ContinueOnError)
	work := fs.String("work", "/work/calib", "the calibration work folder (batches/, keys/, out/)")
	dest := fs.String("dest", "writer/testdata/calib", "where the set is stored")
	if err := fs.Parse(args); err != nil {
		return err
	}
	outs, _ := filepath.Glob(filepath.Join(*work, "out", "*.jsonl"))
	sort.Strings(outs)
	setups, err := calib.ReadSetups(filepath.Join(*work, "keys", "setups.json"))
	if err != nil {
		return err
	}
	byFam := map[string][]writer.Line{}
	used := map[string]calib.Setup{}
	var report []string
	var counts []string
	for _, out := range outs {
		batch := strings.TrimSuffix(filepath.Base(out), ".jsonl")
		if strings.HasPrefix(batch, "prompts-") {
			continue
		}
		keyFile := filepath.Join(*work, "keys", batch+".jsonl")
		keys, err := calib.ReadJSONL[calib.Key](keyFile)
		if err != nil {
			report = append(report, fmt.Sprintf("%s: no answer key (%v): skipped", batch, err))
			continue
		}
		lines, bad, err := ingestBatch(batch, out, keys)
		if err != nil {
			return err
		}
		fam := keys[0].Client
		byFam[fam] = append(byFam[fam], lines...)
		for _, l := range lines {
			var s string
			json.Unmarshal(l.Tags["setup"], &s)
			used[s] = setups[s]
		}
		report = append(report, bad...)
		counts = append(counts, fmt.Sprintf("%s: %d prompts, %d calls kept, %d problems", batch, len(keys), len(lines), len(bad)))
	}
	if err := os.MkdirAll(*dest, 0o755); err != nil {
		return err
	}
	// The set in dest is the record: batches answered earlier whose
	// answers are no longer in the work folder are kept, and a batch
	// ingested again replaces its earlier lines.
	again := map[string]bool{}
	for _, out := range outs {
		again[strings.TrimSuffix(filepath.Base(out), ".jsonl")] = true
	}
	for fam, lines := range byFam {
		old, err := writer.ReadFile(filepath.Join(*dest, fam+".jsonl"))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		lines = mergeBatches(old, lines, again)
		var b bytes.Buffer
		if err := writer.WriteLines(&b, lines); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(*dest, fam+".jsonl"), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	if prev, err := calib.ReadSetups(filepath.Join(*dest, "setups.json")); err == nil {
		for n, st := range prev {
			if _, ok := used[n]; !ok {
				used[n] = st
			}
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := calib.WriteSetups(filepath.Join(*dest, "setups.json"), used); err != nil {
		return err
	}
	prompts, err := ingestPrompts(*work, *dest)
	if err != nil {
		return err
	}
	counts = append(counts, prompts...)
	prevCounts, prevReport := earlierReport(filepath.Join(*dest, "ingest.txt"), again)
	counts = append(prevCounts, counts...)
	sort.Strings(counts)
	report = append(prevReport, report...)
	text := "# ingest: calls kept per batch, then every line dropped and why\n" + strings.Join(counts, "\n") + "\n" + strings.Join(report, "\n") + "\n"
	fmt.Print(text)
	return os.WriteFile(filepath.Join(*dest, "ingest.txt"), []byte(text), 0o644)
}

// ingestPrompts reads the prompt-writing batches' answers and stores each
// catalog's prompts, labelled with the tool they were written for, as a
// query file (dest/prompts/<catalog>.jsonl).
func ingestPrompts(work, dest string) ([]string, error) {
	outs, _ := filepath.Glob(filepath.Join(work, "out", "prompts-*.jsonl"))
	sort.Strings(outs)
	var counts []string
	byCat := map[string][]map[string]any{}
	for _, out := range outs {
		batch := strings.TrimSuffix(filepath.Base(out), ".jsonl")
		kb, err := os.ReadFile(filepath.Join(work, "keys", batch+".json"))
		if err != nil {
			counts = append(counts, fmt.Sprintf("%s: no key: skipped", batch))
			continue
		}
		var keys []map[string]string
		if err := json.Unmarshal(kb, &keys); err != nil {
			return nil, err
		}
		tools := map[string]map[string]string{}
		for _, k := range keys {
			tools[k["tool"]] = k
		}
		data, err := os.ReadFile(out)
		if err != nil {
			return nil, err
		}
		kept, bad := 0, 0
		seen := map[string]bool{}
		for n, raw := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(raw) == "" {
				continue
			}
			var a struct {
				Tool    string   `json:"tool"`
				Prompts []string `json:"prompts"`
			}
			k, ok := map[string]string(nil), false
			if err := json.Unmarshal([]byte(raw), &a); err == nil {
				k, ok = tools[a.Tool]
			}
			if !ok || seen[a.Tool] || len(a.Prompts) == 0 {
				bad++
				counts = append(counts, fmt.Sprintf("%s:%d: dropped (not a {tool, prompts} line of a tool of the batch, or a repeat)", filepath.Base(out), n+1))
				continue
			}
			seen[a.Tool] = true
			cat := strings.TrimSuffix(filepath.Base(k["catalog"]), ".json")
			for i, p := range a.Prompts {
				if strings.TrimSpace(p) == "" {
					continue
				}
				byCat[cat] = append(byCat[cat], map[string]any{"query": p, "expect": []string{k["server"] + "__" + a.Tool}, "tool": a.Tool, "batch": batch, "n": strconv.Itoa(i + 1)})
				kept++
			}
		}
		counts = append(counts, fmt.Sprintf("%s: %d tools, %d prompts kept, %d lines dropped", batch, len(keys), kept, bad))
	}
	if len(byCat) == 0 {
		return counts, nil
	}
	if err := os.MkdirAll(filepath.Join(dest, "prompts"), 0o755); err != nil {
		return nil, err
	}
	for cat, qs := range byCat {
		if err := calib.WriteJSONL(filepath.Join(dest, "prompts", cat+".jsonl"), qs); err != nil {
			return nil, err
		}
	}
	return counts, nil
}

// mergeBatches keeps the earlier lines of batches not ingested again,
// then the new lines, ordered by batch (stable within one).
func mergeBatches(old, fresh []writer.Line, again map[string]bool) []writer.Line {
	var out []writer.Line
	for _, l := range old {
		if !again[batchOf(l)] {
			out = append(out, l)
		}
	}
	out = append(out, fresh...)
	sort.SliceStable(out, func(i, j int) bool { return batchOf(out[i]) < batchOf(out[j]) })
	return out
}

func batchOf(l writer.Line) string {
	var b string
	json.Unmarshal(l.Tags["batch"], &b)
	return b
}

// earlierReport reads a previous ingest.txt: its count lines and problem
// lines of batches not ingested again.
func earlierReport(path string, again map[string]bool) (counts, report []string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil
	}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, _, _ := strings.Cut(line, ":")
		if again[strings.TrimSuffix(name, ".jsonl")] {
			continue
		}
		if strings.Contains(line, " kept, ") {
			counts = append(counts, line)
		} else {
			report = append(report, line)
		}
	}
	return counts, report
}
