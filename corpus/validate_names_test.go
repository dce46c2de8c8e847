package corpus

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// namesRef is the duplicate and shared-name rule of Validate written with
// maps, as it was before sortToolNames: the reference it is held to.
func namesRef(c *Catalog) []string {
	var out []string
	type owner struct{ first, last int }
	owners := map[string]owner{}
	shared := map[string][]string{}
	for si, s := range c.Servers {
		for _, t := range s.Tools {
			o, ok := owners[t.Name]
			switch {
			case ok && o.last == si:
				out = append(out, CodeDuplicateTool+" "+s.Source+" "+s.Name+"/"+t.Name)
			case !ok:
				owners[t.Name] = owner{si, si}
			default:
				if shared[t.Name] == nil {
					shared[t.Name] = []string{c.Servers[o.first].Name}
				}
				shared[t.Name] = append(shared[t.Name], s.Name)
				owners[t.Name] = owner{o.first, si}
			}
		}
	}
	names := make([]string, 0, len(shared))
	for n := range shared {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, srv := range shared[n][1:] {
			out = append(out, fmt.Sprintf("%s %s %s/%s %q", CodeSharedToolName, c.Server(srv).Source, srv, n, shared[n][0]))
		}
	}
	return out
}

// TestToolNamesMatchReference: on random catalogs (few names, so many
// repeats; server names repeated too, as a hand-made Catalog may have
// them), Validate reports the same duplicates and shared names, in the
// same order, as the map-based rule.
func TestToolNamesMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 1))
	for round := 0; round < 500; round++ {
		c := &Catalog{}
		for range r.IntN(6) {
			s := &Server{Name: fmt.Sprint("s", r.IntN(4)), Source: fmt.Sprint("f", r.IntN(100), ".json")}
			for range r.IntN(7) {
				s.Tools = append(s.Tools, &Tool{Name: string(rune('a' + r.IntN(4))), Description: "d", HasDescription: true})
			}
			c.Servers = append(c.Servers, s)
		}
		var got []string
		for _, d := range Validate(c) {
			switch d.Code {
			case CodeDuplicateTool:
				got = append(got, d.Code+" "+d.File+" "+d.Server+"/"+d.Tool)
			case CodeSharedToolName:
				first, _, _ := strings.Cut(strings.TrimPrefix(d.Message, "tool name also used by server "), ";")
				got = append(got, fmt.Sprintf("%s %s %s/%s %s", d.Code, d.File, d.Server, d.Tool, first))
			}
		}
		require.Equal(t, namesRef(c), got, "round %d", round)
	}
}
