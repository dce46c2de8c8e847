// Package transcript turns the session logs of real clients into written
// queries (package writer's file format): the search calls real models
// made, each with the prompt before it and, as expect, the MCP tool the
// model called next — so a user's own history becomes a labelled corpus.
//
// # Claude Code transcripts
//
// ~/.claude/projects/<project>/<session>.jsonl, one JSON object a line.
// The lines read:
//
//   - {"type":"user","message":{"role":"user","content":…}} whose content
//     is a string, or text blocks without a tool_result: the user's prompt.
//     Lines with "isMeta", "isCompactSummary" or "toolUseResult", slash
//     commands (<command-name>, <local-command-…>), texts that are only
//     <system-reminder> blocks and "[Request interrupted…]" are not
//     prompts.
//   - {"type":"assistant","message":{"content":[…]}} tool_use blocks: one
//     named ToolSearch is a search call (client claude@<the line's
//     "version">, call = its input); one named mcp__… is the MCP tool
//     called after the searches of the same prompt, their expect.
//   - "sessionId" names the prompt ids (<first 8 characters>:<n>, n
//     counting the session's prompts); "cwd" is matched by --project;
//     "timestamp" by --since. Subagent lines ("isSidechain") are followed
//     apart from the main conversation (per "agentId").
//
// Every other line type Claude Code writes (attachments, summaries,
// request records, snapshots…) is skipped as "other"; a line that is not
// a JSON object, or has a type not known here, is skipped and counted as
// unknown — never fatal.
//
// # Codex rollouts
//
// ~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl, lines
// {"timestamp","type","payload"}:
//
//   - session_meta: payload.id, payload.cwd (--project), payload.cli_version;
//   - event_msg with payload.type user_message: the prompt (payload.message);
//     a response_item user message whose text is not a client context block
//     (<environment_context>, AGENTS.md instructions, …) counts as the same
//     prompt when no event carries it;
//   - response_item tool_search_call: a codex-search call (its arguments,
//     {"query","limit"});
//   - response_item custom_tool_call named exec: code-mode JavaScript; code
//     that reads ALL_TOOLS is a codex search call ({"code": input}); a
//     tools.mcp__…( or tools["mcp__…"] call in it, or in a later exec, is
//     the MCP tool called next;
//   - response_item function_call with an mcp__ namespace or name: the MCP
//     tool called next (direct mode).
//
// # What is kept
//
// Only what the written-queries format needs: the prompt, the call, the
// tool called next, and the tags session, time and (when no MCP tool was
// called after the searches) after:"none". Tool results, file contents,
// the clients' own prompts and tool descriptions are never copied.
package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/toolfind/toolfind/internal/userfile"
	"github.com/toolfind/toolfind/writer"
)

// Options filter what is imported.
type Options struct {
	// Since keeps prompts at or after this time (zero: all).
	Since time.Time
	// Project keeps sessions whose working folder is Project or inside
	// it ("" : all).
	Project string
}

// Stats count what an import read.
type Stats struct {
	// Files read, lines read, prompts kept, search calls kept, of which
	// WithExpect have an MCP tool called after them.
	Files, Lines, Prompts, Searches, WithExpect int
	// Other counts lines of known kinds that hold no prompt or call;
	// Unknown lines that are not JSON objects or of a kind not known here
	// (a newer client); Filtered prompts left out by --since or --project.
	Other, Unknown, Filtered int
	// FirstUnknown is "file:line" of the first unknown line.
	FirstUnknown string
}

// unknown counts line n of file as unknown.
func (st *Stats) unknown(file string, n int) {
	st.Unknown++
	if st.FirstUnknown == "" {
		st.FirstUnknown = fmt.Sprintf("%s:%d", file, n)
	}
}

// Format is a log's format.
type Format int

// The formats Import reads.
const (
	Claude Format = iota
	Codex
)

// MaxLineBytes bounds one log line; a longer line (a huge tool result) is
// skipped and counted as unknown.
const MaxLineBytes = 64 << 20

// maxLine is MaxLineBytes; tests lower it.
var maxLine = MaxLineBytes

// Import reads the logs at paths (files, or folders searched for *.jsonl
// files, in name order) and returns their search calls as written-query
// lines, in the order read.
func Import(paths []string, opts Options) ([]writer.Line, Stats, error) {
	var st Stats
	var out []writer.Line
	for _, p := range paths {
		files, err := logFiles(p)
		if err != nil {
			return nil, st, err
		}
		for _, f := range files {
			lines, err := ImportFile(f, opts, &st)
			if err != nil {
				return nil, st, err
			}
			out = append(out, lines...)
		}
	}
	return out, st, nil
}

// logFiles lists the logs of a path: the path itself when it is not a
// folder, else the *.jsonl files under it, in name order. Symbolic links
// are followed, to files and to folders (a folder reached twice, as by a
// link to a parent, is walked once); a link that cannot be followed is an
// error naming it.
func logFiles(p string) ([]string, error) {
	fi, err := userfile.Stat(p)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return []string{p}, nil
	}
	var files []string
	var seen []os.FileInfo // the folders walked
	var walk func(dir string, info os.FileInfo) error
	walk = func(dir string, info os.FileInfo) error {
		for _, s := range seen {
			if os.SameFile(s, info) {
				return nil
			}
		}
		seen = append(seen, info)
		entries, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			path := filepath.Join(dir, e.Name())
			t := e.Type()
			var info os.FileInfo
			if t&fs.ModeSymlink != 0 {
				if info, err = userfile.Stat(path); err != nil {
					return err
				}
				t = info.Mode().Type()
			}
			if t.IsDir() {
				if info == nil {
					if info, err = e.Info(); err != nil {
						return err
					}
				}
				if err := walk(path, info); err != nil {
					return err
				}
				continue
			}
			if strings.HasSuffix(e.Name(), ".jsonl") {
				files = append(files, path)
			}
		}
		return nil
	}
	err = walk(p, fi)
	sort.Strings(files)
	return files, err
}

// ImportFile reads one log, telling its format from its name
// (rollout-*.jsonl is Codex's) or, failing that, from its first line.
func ImportFile(path string, opts Options, st *Stats) ([]writer.Line, error) {
	f, err := userfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	format := Claude
	if strings.HasPrefix(filepath.Base(path), "rollout-") {
		format = Codex
	} else if head, _ := br.Peek(4096); looksCodex(head) {
		format = Codex
	}
	st.Files++
	if format == Codex {
		return ParseCodex(path, br, opts, st)
	}
	return ParseClaude(path, br, opts, st)
}

// looksCodex: the first line has Codex's {"timestamp","type","payload"}
// envelope.
func looksCodex(head []byte) bool {
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	var v struct {
		Type    string          `json:"type"`
		Payload json.RawMessage `json:"payload"`
	}
	return json.Unmarshal(head, &v) == nil && v.Payload != nil &&
		(v.Type == "session_meta" || v.Type == "response_item" || v.Type == "event_msg" || v.Type == "turn_context")
}

// eachLine calls fn with every line of r, skipping (and counting as
// unknown) lines longer than MaxLineBytes.
func eachLine(file string, r io.Reader, st *Stats, fn func(n int, line []byte)) error {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	n := 0
	var buf []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > maxLine {
			tooLong, buf = true, buf[:0]
		} else if !tooLong {
			buf = append(buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(chunk) > 0 || len(buf) > 0 || tooLong {
			n++
			st.Lines++
			if tooLong {
				st.unknown(file, n)
			} else if t := bytes.TrimSpace(buf); len(t) > 0 {
				fn(n, t)
			}
		}
		buf, tooLong = buf[:0], false
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", file, n+1, err)
		}
	}
}

// chain follows one conversation (a session's main thread, or a
// subagent's) from prompt to search to the tool called next.
type chain struct {
	session string
	prompt  string
	time    string
	n       int
	keep    bool
	// pending are the indexes (in out) of this prompt's search lines that
	// have no tool called after them yet.
	pending []int
	// busy: a search or a tool call came after the prompt.
	busy bool
}

// importer accumulates the lines of one file.
type importer struct {
	opts Options
	st   *Stats
	out  []writer.Line
	// prompts counts the prompts seen per session, over all its chains.
	prompts map[string]int
}

func newImporter(opts Options, st *Stats) *importer {
	return &importer{opts: opts, st: st, prompts: map[string]int{}}
}

// startPrompt closes the chain's previous prompt and opens a new one.
func (im *importer) startPrompt(c *chain, text, ts, cwd string) {
	im.finish(c)
	im.prompts[c.session]++
	c.prompt, c.time, c.n = text, ts, im.prompts[c.session]
	c.pending, c.busy = nil, false
	c.keep = im.keepPrompt(ts, cwd)
	if c.keep {
		im.st.Prompts++
	} else {
		im.st.Filtered++
	}
}

func (im *importer) keepPrompt(ts, cwd string) bool {
	if !im.opts.Since.IsZero() {
		t, err := time.Parse(time.RFC3339Nano, ts)
		if err != nil || t.Before(im.opts.Since) {
			return false
		}
	}
	if im.opts.Project != "" {
		p := filepath.Clean(im.opts.Project)
		c := filepath.Clean(cwd)
		if cwd == "" || (c != p && !strings.HasPrefix(c, strings.TrimSuffix(p, string(filepath.Separator))+string(filepath.Separator))) {
			return false
		}
	}
	return true
}

// search records a search call of the chain's current prompt.
func (im *importer) search(c *chain, client string, call json.RawMessage) {
	c.busy = true
	if !c.keep || c.prompt == "" {
		return
	}
	id := c.session
	if len(id) > 8 {
		id = id[:8]
	}
	l := writer.Line{ID: fmt.Sprintf("%s:%d", id, c.n), Prompt: c.prompt, Client: client, Call: call, Writer: "import",
		Tags: map[string]json.RawMessage{}}
	setTag(&l, "session", c.session)
	if c.time != "" {
		setTag(&l, "time", c.time)
	}
	im.out = append(im.out, l)
	c.pending = append(c.pending, len(im.out)-1)
	im.st.Searches++
}

// called records the MCP tool the model called: the expect of the
// chain's searches made since the last call.
func (im *importer) called(c *chain, tool string) {
	c.busy = true
	for _, i := range c.pending {
		im.out[i].Expect = []string{tool}
		im.st.WithExpect++
	}
	c.pending = nil
}

// finish marks the searches no tool followed.
func (im *importer) finish(c *chain) {
	for _, i := range c.pending {
		setTag(&im.out[i], "after", "none")
	}
	c.pending = nil
}

func setTag(l *writer.Line, k, v string) {
	b, _ := json.Marshal(v)
	if l.Tags == nil {
		l.Tags = map[string]json.RawMessage{}
	}
	l.Tags[k] = b
}
