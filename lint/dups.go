package lint

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search"
)

// keep says, per repeated name, which definitions each client shows its
// model: the definition numbers (1-based), nil when it shows none.
type keep map[*corpus.Server]map[string][]clientKeep

type clientKeep struct {
	client string
	defs   []int // definitions the model reads
	known  bool  // false: the texts could not tell the definitions apart
	shown  bool  // the client shows the name in the real catalog
}

// dupServer is the neutral server name of the one-name catalogs keepers
// builds, valid for every client.
const dupServer = "dupcheck"

// keepers asks each client which definition of each repeated name it keeps:
// a catalog holding only that name's definitions (under a server name every
// client accepts) is given to a fresh simulator of the same profile, and
// the definition whose distinguishing words are in what its model is shown
// (search.Viewer) is the one kept. The fresh simulators use each profile's
// default options (option values given to the originals are not known
// here).
func keepers(cat *corpus.Catalog, sims []search.Simulator, dd defs) keep {
	out := keep{}
	for _, s := range cat.Servers {
		var names []string
		for name, list := range dd[s] {
			if len(list) > 1 {
				names = append(names, name)
			}
		}
		sort.Strings(names)
		for _, name := range names {
			list := dd[s][name]
			mini := &corpus.Server{Name: dupServer, Source: s.Source}
			for i, t := range list {
				c := *t
				c.Server, c.Index = dupServer, i
				mini.Tools = append(mini.Tools, &c)
			}
			one := &corpus.Catalog{}
			if one.Add(mini) != nil {
				continue
			}
			one.Revalidate()
			for _, sim := range sims {
				v, ok := sim.(search.Viewer)
				if !ok {
					continue
				}
				ck := clientKeep{client: sim.Client().String()}
				_, ck.shown = v.View(corpus.NewToolID(s.Name, name))
				p, err := search.Lookup(ck.client)
				if err != nil {
					continue
				}
				fresh, err := search.Build(p, one, nil)
				if err != nil {
					continue
				}
				fv, ok := fresh.(search.Viewer)
				if !ok {
					continue
				}
				view, ok := fv.View(corpus.NewToolID(dupServer, name))
				switch {
				case !ok:
					ck.known = true
				case reported(fresh, name) != nil:
					ck.defs, ck.known = reported(fresh, name), true
				default:
					ck.defs, ck.known = whichDefs(view.Text, list)
				}
				if out[s] == nil {
					out[s] = map[string][]clientKeep{}
				}
				out[s][name] = append(out[s][name], ck)
			}
		}
	}
	return out
}

// reported reads the client's own report on a repeated name: a duplicate
// code means it kept the first definition, OpenCode's key collision (a
// later tool replaces the earlier) the last.
func reported(sim search.Simulator, name string) []int {
	rep, ok := sim.(search.Reporter)
	if !ok {
		return nil
	}
	n := 0
	last := false
	for _, d := range rep.Problems() {
		if d.Tool != name {
			continue
		}
		switch {
		case dupCodes[d.Code]:
			n++
		case d.Code == "opencode-key-collision", d.Code == "gemini-duplicate", d.Code == "copilot-duplicate":
			n++
			last = true
		}
	}
	if n == 0 {
		return nil
	}
	if last {
		return []int{n + 1}
	}
	return []int{1}
}

// whichDefs finds the definitions a shown text comes from: those whose
// description (its first 200 characters, raw or JSON-escaped) is in the
// text, the longest when one contains another (a definition that only
// appends to the other's text). ok is false when no description, or every
// description, is found and they are all equal.
func whichDefs(shown string, list []*corpus.Tool) (kept []int, ok bool) {
	var present []int
	for i, t := range list {
		snip := clipRunes(t.Description, 200)
		if snip == "" {
			continue
		}
		esc, _ := json.Marshal(snip)
		if strings.Contains(shown, snip) || strings.Contains(shown, string(esc[1:len(esc)-1])) || strings.Contains(shown, escapeNoHTML(snip)) {
			present = append(present, i)
		}
	}
	for _, i := range present {
		inOther := false
		for _, j := range present {
			if i != j && len(list[j].Description) > len(list[i].Description) && strings.Contains(list[j].Description, clipRunes(list[i].Description, 200)) {
				inOther = true
			}
		}
		if !inOther {
			kept = append(kept, i+1)
		}
	}
	if len(kept) == 0 {
		return nil, false
	}
	if len(kept) > 1 {
		for _, k := range kept[1:] {
			if list[k-1].Description != list[kept[0]-1].Description {
				return kept, true
			}
		}
		return nil, false
	}
	return kept, true
}

func escapeNoHTML(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	out := strings.TrimSuffix(b.String(), "\n")
	out = strings.TrimSpace(out)
	return strings.TrimSuffix(strings.TrimPrefix(out, `"`), `"`)
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}

// describeDuplicate replaces a duplicate finding's consequences by what
// each client keeps.
func describeDuplicate(f *Finding, k keep, cat *corpus.Catalog, dd defs) {
	srv := cat.Server(f.Location.Server)
	if srv == nil {
		return
	}
	name := f.Location.Tool
	n := len(dd[srv][name])
	var out []Consequence
	index := map[string]int{}
	for _, ck := range k[srv][name] {
		effect := keptPhrase(ck, n)
		if i, ok := index[effect]; ok {
			out[i].Clients = append(out[i].Clients, ck.client)
			continue
		}
		index[effect] = len(out)
		out = append(out, Consequence{Clients: []string{ck.client}, Effect: effect, Tools: []corpus.ToolID{corpus.NewToolID(srv.Name, name)}})
	}
	if len(out) > 0 {
		f.Consequences = out
	}
}

func keptPhrase(ck clientKeep, n int) string {
	var s string
	switch {
	case !ck.known:
		s = "keeps one definition (their texts do not tell which)"
	case len(ck.defs) == 0:
		s = "shows no definition"
	case len(ck.defs) > 1:
		s = "shows every definition"
	case ck.defs[0] == 1:
		s = "keeps definition 1 (the first)"
	case ck.defs[0] == n:
		s = fmt.Sprintf("keeps definition %d (the last)", n)
	default:
		s = fmt.Sprintf("keeps definition %d", ck.defs[0])
	}
	if !ck.shown {
		s += " once it shows the tool (today it drops it, see the other findings)"
	}
	return s
}

// keptBy lists the clients that show definition def of a repeated name.
func keptBy(k keep, s *corpus.Server, name string, def int) []string {
	var out []string
	for _, ck := range k[s][name] {
		for _, d := range ck.defs {
			if d == def {
				out = append(out, ck.client)
			}
		}
	}
	return out
}
