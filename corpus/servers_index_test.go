package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServerIndex: Server finds the first server of a name through its
// index, and sees every change to Servers: appending (Add), reslicing,
// replacing the slice or an element, and a rename in place of a server
// the index knows.
func TestServerIndex(t *testing.T) {
	c := &Catalog{}
	for i := range 20 {
		if err := c.Add(&Server{Name: fmt.Sprintf("s%d", i), Source: "a.json"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Add(&Server{Name: "s3", Source: "b.json"}); err == nil || !strings.Contains(err.Error(), `server name "s3" is already defined by a.json`) {
		t.Fatalf("Add of a repeated name: %v", err)
	}
	check := func(step, name, want string) {
		t.Helper()
		got := ""
		if s := c.Server(name); s != nil {
			got = s.Name + "@" + s.Source
		}
		if got != want {
			t.Errorf("%s: Server(%q) = %q, want %q", step, name, got, want)
		}
	}
	check("after Add", "s19", "s19@a.json")
	check("after Add", "nope", "")
	c.Servers = c.Servers[:10] // shrunk
	check("resliced", "s19", "")
	check("resliced", "s9", "s9@a.json")
	c.Servers = append(c.Servers, &Server{Name: "s19", Source: "c.json"}) // overwrites the old s10 slot
	check("appended", "s19", "s19@c.json")
	c.Servers[10] = &Server{Name: "s19", Source: "d.json"} // replaced in place
	check("replaced", "s19", "s19@d.json")
	c.Servers[0].Name = "renamed" // renamed in place: the indexed name is gone
	check("renamed", "s0", "")
	c.Servers = append([]*Server{{Name: "s5", Source: "first.json"}}, c.Servers...) // a new slice
	check("new slice", "s5", "s5@first.json")
	dup := &Catalog{}
	for i := range 10 {
		dup.Servers = append(dup.Servers, &Server{Name: "x", Source: fmt.Sprintf("%d.json", i)})
	}
	if s := dup.Server("x"); s == nil || s.Source != "0.json" {
		t.Errorf("the first of a repeated name: %+v", s)
	}
}

// BenchmarkLoadManyServers loads one file of 100,000 servers of one tool
// each: linear in the servers (before Server kept an index, Add and
// Validate compared each name with every server before it: 54 s).
func BenchmarkLoadManyServers(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"servers": [`)
	for i := range 100_000 {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"name": "srv%d", "tools": [{"name": "t", "description": "Tool of server %d", "inputSchema": {"type": "object"}}]}`, i, i)
	}
	sb.WriteString("]}")
	p := filepath.Join(b.TempDir(), "servers.json")
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(sb.Len()))
	b.ReportAllocs()
	for b.Loop() {
		c, err := Load(p)
		if err != nil {
			b.Fatal(err)
		}
		if len(c.Servers) != 100_000 {
			b.Fatalf("%d servers", len(c.Servers))
		}
	}
}
