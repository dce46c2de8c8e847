package writer

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/toolfind/toolfind/search"
)

// Agreement is how well the heuristic writer's calls agree with
// model-written calls for one client: the share of prompts on which both
// find an expected tool or both miss, over the calibration set
// (writer/testdata/calib), each catalog's prompts scored by weights
// fitted without them (leave-one-catalog-out).
type Agreement struct {
	Agreement float64 `json:"agreement"`
	Prompts   int     `json:"prompts"`
}

//go:embed agreement.json
var agreementJSON []byte

// agreements are the measured agreements by client name, written by the
// fitting program (go run ./writer/internal/calibrate fit).
var agreements = sync.OnceValue(func() map[string]Agreement {
	var m map[string]Agreement
	if err := json.Unmarshal(agreementJSON, &m); err != nil {
		panic("writer: agreement.json: " + err.Error())
	}
	return m
})

// HeuristicAgreement is the heuristic writer's measured agreement with
// model-written calls for the client (by name), if it was measured.
func HeuristicAgreement(client search.ClientID) (Agreement, bool) {
	a, ok := agreements()[client.Name]
	return a, ok
}

// Default is the writer every command that scores prompts uses unless the
// user names another: the heuristic writer, a prediction of the call each
// client's model makes (design.md, "CLI contract"). The prompt verbatim is
// a baseline, used only when asked for.
const Default = "heuristic"

// Label is what reports say about the writer of one client's calls: the
// writer's name, then what its calls are, e.g. "heuristic (a prediction of
// the model's call)". name is a Writer's Name, or the writer names of a
// written-queries file joined by "+" (Replay.WriterOf: "import",
// "heuristic+model").
//
// It is the one place where a writer's description for a client is made:
// a measured agreement of the writer's calls with model-written calls, per
// client, belongs here, so that every report (bench, check, rank, suggest)
// shows it beside the writer's name.
func Label(name string, client search.ClientID) string {
	if name == "" {
		return ""
	}
	parts := strings.Split(name, "+")
	descs := make([]string, 0, len(parts))
	for _, p := range parts {
		if d := describe(p); d != "" {
			if p == "heuristic" {
				d += "; " + agreementText(client)
			}
			descs = append(descs, d)
		}
	}
	if len(descs) == 0 {
		return name
	}
	return name + " (" + strings.Join(descs, "; ") + ")"
}

// describe says what one writer's calls are ("" for a name toolfind does
// not know: a written file may name any writer).
func describe(name string) string {
	switch name {
	case "heuristic":
		return "a prediction of the model's call"
	case "verbatim":
		return "the prompt itself as the search: a baseline, not a model's call"
	case "model":
		return "calls a model wrote"
	case "command":
		return "calls a program wrote"
	case "import":
		return "calls real models made, from session logs"
	case "unnamed":
		return "the file does not say who wrote these calls"
	}
	return ""
}

// agreementText says how well the heuristic agrees with model-written
// calls for the client.
func agreementText(client search.ClientID) string {
	a, ok := HeuristicAgreement(client)
	if !ok {
		return "its agreement with model-written calls is not measured for this client"
	}
	return fmt.Sprintf("agrees with model-written calls on %.0f%% of %d prompts, measured leave-one-catalog-out", 100*a.Agreement, a.Prompts)
}

// LabelLine is the line reports print about the writer of the clients'
// calls: "writer: " and the label when it is the same for every client,
// else "writers: " and, per client, "client: label" ("" without a writer
// or clients).
func LabelLine(name string, clients []search.ClientID) string {
	if name == "" || len(clients) == 0 {
		return ""
	}
	labels := make([]string, len(clients))
	same := true
	for i, c := range clients {
		labels[i] = Label(name, c)
		same = same && labels[i] == labels[0]
	}
	if same {
		return "writer: " + labels[0]
	}
	if name == "heuristic" {
		// One line for every client: the agreement per client.
		var got, not []string
		seen := map[string]bool{}
		for _, c := range clients {
			if seen[c.Name] {
				continue
			}
			seen[c.Name] = true
			if a, ok := HeuristicAgreement(c); ok {
				got = append(got, fmt.Sprintf("%s %.2f", c.Name, a.Agreement))
			} else {
				not = append(not, c.Name)
			}
		}
		sort.Strings(not)
		text := "writer: heuristic (" + describe("heuristic")
		if len(got) > 0 {
			text += "; agreement with model-written calls, leave-one-catalog-out: " + strings.Join(got, ", ")
		}
		if len(not) > 0 {
			text += "; not measured for " + strings.Join(not, ", ")
		}
		return text + ")"
	}
	parts := make([]string, len(clients))
	for i, c := range clients {
		parts[i] = c.String() + ": " + labels[i]
	}
	return "writers: " + strings.Join(parts, "; ")
}
