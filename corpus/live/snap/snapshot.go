package snap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/toolfind/toolfind/corpus"
)

// DefaultTimeout bounds each phase of a snapshot (start with handshake;
// the whole tools/list with all its pages) unless Options.Timeout is set.
const DefaultTimeout = 30 * time.Second

// Snapshot is what one live server published: its initialize answer and
// every tool of every tools/list page, exactly as sent.
type Snapshot struct {
	Source Source
	// Name is the server name: Source.Name when given, else the part of
	// the initialize serverInfo.name after its last '/'
	// ("mcp-servers/everything" → "everything"), else the command's base
	// name or the URL's host.
	Name string
	// Instructions is the initialize result's "instructions";
	// HasInstructions says whether the server sent any.
	Instructions    string
	HasInstructions bool
	// ServerInfo is the initialize result's "serverInfo" object as sent
	// (nil when absent); ProtocolVersion the version the server chose.
	ServerInfo      json.RawMessage
	ProtocolVersion string
	// Tools are the entries of every page's "tools" array, byte for byte,
	// in order, duplicates and malformed entries included.
	Tools []json.RawMessage
	// Pages is the number of tools/list requests it took, and FirstPage
	// the number of tools the first one answered.
	Pages     int
	FirstPage int
	// Duplicates are the responses the server sent to a request it had
	// answered already, in the order they came. The first answer is the
	// one kept, as the SDK and the clients keep it; Servers reports each
	// duplicate as a diagnostic, since a server answering twice can show a
	// checker other tools than the clients get.
	Duplicates []Duplicate
}

// Duplicate is a response to a request that had been answered already
// (JSON-RPC 2.0 §5 allows one).
type Duplicate struct {
	// Method is the request's: "initialize", "tools/list", "tools/call".
	Method string
	// Request is the request's number among those of its method, from 1:
	// for tools/list, the page.
	Request int
	// Differs says whether it differs from the first answer.
	Differs bool
}

// Phase is the phase of the request answered twice.
func (d Duplicate) Phase() Phase {
	switch d.Method {
	case "initialize":
		return PhaseHandshake
	case "tools/list":
		return PhaseList
	case "tools/call":
		return PhaseCall
	}
	return ""
}

// Diagnostic reports d for the server of snapshot s (corpus code
// duplicate-response, an error when the answers differ).
func (d Duplicate) Diagnostic(s *Snapshot) corpus.Diagnostic {
	what := d.Method
	if d.Method == "tools/list" {
		what = fmt.Sprintf("tools/list page %d", d.Request)
	} else if d.Request > 1 {
		what = fmt.Sprintf("%s (request %d)", d.Method, d.Request)
	}
	msg := fmt.Sprintf("%s phase: the server answered %s twice with the same id; toolfind keeps the first answer, as the MCP SDK and the clients do", d.Phase(), what)
	sev := corpus.Warning
	if d.Differs {
		sev = corpus.Error
		msg += ", and the later one differs: a client or checker reading the later answer would see other tools; answer each request once"
	} else {
		msg += " (the two answers are the same); answer each request once"
	}
	return corpus.Diagnostic{Severity: sev, Code: corpus.CodeDuplicateResponse, File: s.Source.Label(), Server: s.Name, Message: msg}
}

// ToolCall is one live tools/call: the server's snapshot (its tools, to
// find the called tool's definition) and the raw result.
type ToolCall struct {
	Snapshot *Snapshot
	// Result is the "result" member of the tools/call response, byte for
	// byte as the server sent it.
	Result json.RawMessage
}

// document is the server's catalog entry as compact JSON: nameKey is
// "server" for a one-server catalog file and "name" inside "servers".
// Member order: name, instructions (when sent), x_server_info (when sent),
// x_first_page (the tools on the first page, when there were several),
// tools. Strings are written without HTML escaping; tools verbatim.
func (s *Snapshot) document(nameKey string) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	b.WriteString(jsonString(nameKey))
	b.WriteByte(':')
	b.WriteString(jsonString(s.Name))
	if s.HasInstructions {
		b.WriteString(`,"instructions":`)
		b.WriteString(jsonString(s.Instructions))
	}
	if s.ServerInfo != nil {
		b.WriteString(`,"x_server_info":`)
		b.Write(s.ServerInfo)
	}
	if s.Pages > 1 {
		fmt.Fprintf(&b, `,"x_first_page":%d`, s.FirstPage)
	}
	b.WriteString(`,"tools":[`)
	for i, t := range s.Tools {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(t)
	}
	b.WriteString("]}")
	return b.Bytes()
}

func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// CatalogJSON returns the snapshot as a compact one-server catalog file,
// {"server", "instructions", "x_server_info", "tools"}, which
// corpus.ParseCatalog reads back to the same server.
func (s *Snapshot) CatalogJSON() []byte { return s.document("server") }

// WriteCatalog writes snapshots as a catalog file, indented by two spaces:
// one snapshot as {"server", "instructions", "x_server_info", "tools"},
// several as {"servers": [{"name", …}, …]}. Only whitespace between tokens
// differs from what the servers sent; every tool keeps its members, their
// order, duplicates, escapes and number spellings.
func WriteCatalog(w io.Writer, snaps []*Snapshot) error {
	var doc []byte
	if len(snaps) == 1 {
		doc = snaps[0].document("server")
	} else {
		var b bytes.Buffer
		b.WriteString(`{"servers":[`)
		for i, s := range snaps {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(s.document("name"))
		}
		b.WriteString("]}")
		doc = b.Bytes()
	}
	var out bytes.Buffer
	if err := json.Indent(&out, doc, "", "  "); err != nil {
		return fmt.Errorf("live: assembling the catalog: %w", err)
	}
	out.WriteByte('\n')
	_, err := w.Write(out.Bytes())
	return err
}

// Servers parses the snapshot as corpus does a catalog file (Source.Label
// names it in diagnostics), so a simulator sees the live server exactly as
// it would see the snapshot committed to a file.
// Each of its Duplicates adds a diagnostic.
func (s *Snapshot) Servers() ([]*corpus.Server, []corpus.Diagnostic, error) {
	servers, diags, err := corpus.ParseCatalog(s.Source.Label(), s.CatalogJSON())
	if err != nil {
		return nil, nil, err
	}
	for _, d := range s.Duplicates {
		diags = append(diags, d.Diagnostic(s))
	}
	return servers, diags, nil
}

// Merge returns a catalog with base's servers followed by the snapshots'
// servers, validated together (a tool name shared between a file and a
// live server is reported once). base is not modified; it may be nil. A
// server name used twice is an error naming both sources: give one of them
// a "name=" prefix. base's parse diagnostics are kept and its validation
// is done again over the merged catalog (corpus.Catalog.Revalidate).
func Merge(base *corpus.Catalog, snaps []*Snapshot) (*corpus.Catalog, error) {
	cat := &corpus.Catalog{}
	if base != nil {
		if err := cat.Merge(base); err != nil {
			return nil, err
		}
	}
	for _, snap := range snaps {
		servers, diags, err := snap.Servers()
		if err != nil {
			return nil, err
		}
		if err := cat.AddParsed(servers, diags); err != nil {
			return nil, fmt.Errorf("%w (give a live server another name with a name= prefix)", err)
		}
	}
	cat.Revalidate()
	return cat, nil
}
