package lint

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

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
// (search.Viewer) is the one kept.
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
			words := distinguishing(list)
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
				if ok {
					ck.defs, ck.known = whichDefs(strings.ToLower(view.Text), words)
				} else {
					ck.known = true
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

// distinguishing returns, per definition, the words of its description,
// title and parameter names that no other definition has.
func distinguishing(list []*corpus.Tool) [][]string {
	sets := make([]map[string]bool, len(list))
	for i, t := range list {
		sets[i] = map[string]bool{}
		text := t.Description + " " + t.Title
		if props, ok := t.InputSchema.Get("properties"); ok {
			text += " " + strings.Join(props.Keys(), " ")
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if len(w) >= 3 {
				sets[i][w] = true
			}
		}
	}
	out := make([][]string, len(list))
	for i := range list {
		for w := range sets[i] {
			unique := true
			for j := range list {
				if j != i && sets[j][w] {
					unique = false
				}
			}
			if unique {
				out[i] = append(out[i], w)
			}
		}
		sort.Strings(out[i])
	}
	return out
}

// whichDefs finds the definitions a shown text comes from: those with a
// distinguishing word in it; when none has, the one definition without
// distinguishing words (its text is contained in the others').
func whichDefs(shown string, words [][]string) ([]int, bool) {
	var hit, bare []int
	for i, ws := range words {
		if len(ws) == 0 {
			bare = append(bare, i+1)
			continue
		}
		for _, w := range ws {
			if strings.Contains(shown, w) {
				hit = append(hit, i+1)
				break
			}
		}
	}
	if len(hit) > 0 {
		return hit, true
	}
	if len(bare) == 1 {
		return bare, true
	}
	return nil, false
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
		s += " once the tool is loaded (today it drops it)"
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
