package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/toolfind/toolfind/corpus"
)

// promptCatalogs are the shared catalogs with no labelled corpus, and how
// many of their tools get prompts written (a sample of the big ones).
var promptCatalogs = []struct {
	name string
	max  int
}{
	{"chrome-devtools", 51}, {"everything", 13}, {"filesystem", 14}, {"github", 60},
	{"kubernetes", 47}, {"memory", 9}, {"notion", 24}, {"okta", 50},
	{"playwright", 45}, {"sequential-thinking", 1}, {"supabase", 31}, {"zscaler", 50},
}

// runPrompts writes one prompt-writing batch per catalog: each tool shown
// on its own (name, description, input schema), with the request to
// write realistic user requests that need it.
func runPrompts(args []string) error {
	fs := flag.NewFlagSet("prompts", flag.ContinueOnError)
	shared := fs.String("shared", "../shared", "the shared folder")
	out := fs.String("out", "/work/calib", "the calibration work folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	for _, pc := range promptCatalogs {
		cat, err := corpus.Load(filepath.Join(*shared, "catalogs", pc.name+".json"))
		if err != nil {
			return err
		}
		var tools []*corpus.Tool
		for _, s := range cat.Servers {
			tools = append(tools, s.Tools...)
		}
		if len(tools) > pc.max {
			r := rand.New(rand.NewPCG(seed("prompts", pc.name), 3))
			idx := r.Perm(len(tools))[:pc.max]
			sort.Ints(idx)
			var pick []*corpus.Tool
			for _, i := range idx {
				pick = append(pick, tools[i])
			}
			tools = pick
		}
		batch := fmt.Sprintf("prompts-%s-1", pc.name)
		var b strings.Builder
		fmt.Fprintf(&b, "# Batch %s: write user requests, one tool at a time\n\n", batch)
		fmt.Fprintf(&b, "Below are %d tools of one MCP server (%q), each shown on its own: its name, its description and its input schema. "+
			"For each tool, write 2 or 3 requests a real user might type to an AI assistant (in a coding agent or chat client with this server connected) for which this tool is what the assistant must call.\n\n", len(tools), cat.Servers[0].Name)
		b.WriteString("Rules:\n\n")
		b.WriteString("- Write the request the way users write: about their goal and their data (\"why is my checkout pod restarting?\", \"grab the last 20 console errors from the page I have open\"), with concrete names, values and context. Do NOT paraphrase the description and do not name the tool, its parameters or the server unless a user naturally would.\n")
		b.WriteString("- Vary them: a short one, a longer one with context, one where the tool is the first step of a bigger task. Each must still clearly need this tool.\n")
		b.WriteString("- Look only at the tool in front of you; do not open other files, run programs or search the web.\n")
		fmt.Fprintf(&b, "- Output: create `/work/calib/out/%s.jsonl`, one line per tool in the order given: `{\"tool\": \"<tool name>\", \"prompts\": [\"...\", \"...\"]}`. Every tool appears exactly once. Check the file parses as JSON Lines.\n", batch)
		for i, t := range tools {
			schema := "{}"
			if len(t.InputSchemaRaw) > 0 {
				var buf bytes.Buffer
				if json.Indent(&buf, t.InputSchemaRaw, "", "  ") == nil {
					schema = buf.String()
				} else {
					schema = string(t.InputSchemaRaw)
				}
			}
			if len(schema) > 6000 {
				schema = schema[:6000] + "\n… (cut)"
			}
			fmt.Fprintf(&b, "\n## Tool %d of %d: `%s`\n\nDescription:\n\n~~~text\n%s\n~~~\n\nInput schema:\n\n~~~json\n%s\n~~~\n", i+1, len(tools), t.Name, strings.TrimSpace(t.Description), schema)
		}
		if err := os.WriteFile(filepath.Join(*out, "batches", batch+".md"), []byte(b.String()), 0o644); err != nil {
			return err
		}
		var keys []map[string]string
		for _, t := range tools {
			keys = append(keys, map[string]string{"tool": t.Name, "server": t.Server, "catalog": "catalogs/" + pc.name + ".json"})
		}
		kb, _ := json.Marshal(keys)
		if err := os.WriteFile(filepath.Join(*out, "keys", batch+".json"), kb, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(*out, "batches", batch+".ready"), nil, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "%s: %d tools, %d bytes\n", batch, len(tools), b.Len())
	}
	return nil
}
