package codexjs

import (
	"strings"
	"testing"

	"github.com/toolfind/toolfind/ojson"
)

func parseFuzz(data []byte) (any, error) {
	v, err := ojson.Parse(data)
	if err != nil {
		return nil, err
	}
	return fromOJSON(v), nil
}

func qualifyOne(servers, tools []string) []string {
	var out []string
	for _, q := range qualifyNames(servers, tools) {
		out = append(out, q.namespace+"/"+q.name)
	}
	return out
}

// §1.3(a) test vectors and the collisions observed on Codex 0.171.0.
func TestQualifyNames(t *testing.T) {
	tests := []struct {
		servers, tools []string
		want           []string
	}{
		{[]string{"server.one"}, []string{"tool.two-three"}, []string{"mcp__server_one/tool_two_three"}},
		{[]string{"music-studio"}, []string{"get-strudel-guide"}, []string{"mcp__music_studio/get_strudel_guide"}},
		{[]string{"server1"}, []string{"tool1"}, []string{"mcp__server1/tool1"}},
		// An exact duplicate is dropped (first wins).
		{[]string{"s", "s"}, []string{"t", "t"}, []string{"mcp__s/t"}},
		// Namespaces that collide after sanitising: each gets _ + 12 hex of
		// SHA-1("<server>\0<server>\0"); in raw-identity order.
		{[]string{"my_server", "my-server"}, []string{"t", "t"}, []string{"mcp__my_server_497a8b629ad2/t", "mcp__my_server_b7840dcbfd2d/t"}},
		// Tool names that collide: SHA-1 of the tool identity.
		{[]string{"Caps", "Caps"}, []string{"tool-a", "tool_a"}, []string{"mcp__Caps/tool_a_034313efb48c", "mcp__Caps/tool_a_4832ab00b742"}},
		// Non-ASCII characters are one _ each; a name already prefixed keeps it.
		{[]string{"mcp__x"}, []string{"ü"}, []string{"mcp__x/_"}},
	}
	for _, tt := range tests {
		got := qualifyOne(tt.servers, tt.tools)
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("%v %v: got %v want %v", tt.servers, tt.tools, got, tt.want)
		}
	}
}

// §1.3(a): a 130-character name on "probe" is cut and hashed to exactly 128
// bytes with the namespace and the delimiter (observed:
// mcp__probe__LLL…L_2894d93cd459); two 128-character names on my_server
// both come out at 128.
func TestLongNames(t *testing.T) {
	q := qualifyNames([]string{"probe"}, []string{strings.Repeat("L", 130)})
	want := strings.Repeat("L", 103) + "_2894d93cd459"
	if q[0].name != want || len(q[0].namespace)+2+len(q[0].name) != 128 {
		t.Errorf("got %s/%s", q[0].namespace, q[0].name)
	}
	qs := qualifyNames([]string{"my_server", "my_server"}, []string{strings.Repeat("a", 128), strings.Repeat("b", 128)})
	for _, q := range qs {
		if q.namespace != "mcp__my_server" || len(q.namespace)+2+len(q.name) != 128 {
			t.Errorf("got %s/%s (%d)", q.namespace, q.name, len(q.namespace)+2+len(q.name))
		}
	}
	// A namespace that leaves no room for the suffix is cut to 128−13−2.
	qn := qualifyNames([]string{strings.Repeat("n", 200)}, []string{"t"})
	if len(qn[0].namespace) != 113 || len(qn[0].name) != 13 {
		t.Errorf("got %d/%d", len(qn[0].namespace), len(qn[0].name))
	}
}

// §1.2.5 code-mode names and §1.3(b) identifiers.
func TestCodeModeNames(t *testing.T) {
	for _, tt := range []struct{ ns, name, want string }{
		{"", "apply_patch", "apply_patch"},
		{"editor", "apply_patch", "editor__apply_patch"},
		{"mcp__rmcp", "echo", "mcp__rmcp__echo"},
		{"mcp__endsunder_", "x", "mcp__endsunder_x"},
		{"mcp__probe", "_underscore", "mcp__probe_underscore"},
	} {
		if got := codeModeName(tt.ns, tt.name); got != tt.want {
			t.Errorf("%s/%s: %s want %s", tt.ns, tt.name, got, tt.want)
		}
	}
	for in, want := range map[string]string{
		"mcp__ologs__get_profile": "mcp__ologs__get_profile",
		"hidden-dynamic-tool":     "hidden_dynamic_tool",
		"1abc":                    "_abc",
		"":                        "_",
		"$a1":                     "$a1",
		"été":                     "_t_",
	} {
		if got := normalizeIdentifier(in); got != want {
			t.Errorf("%q: %q want %q", in, got, want)
		}
	}
}

// Server names accepted by Codex 0.171.0, probed character by character.
func TestValidServerName(t *testing.T) {
	for _, ok := range []string{"github", "a.c", "a:b", "a/b", "a@b", "-lead", "_lead", ".lead", "1num", "my-server"} {
		if !validServerName(ok) {
			t.Errorf("%q rejected", ok)
		}
	}
	for _, bad := range []string{"", "a b", "uniü", "A+B", "x~y", `a"q`, "a,b", "a=b", "a#b", "a[b]", `a\b`, "a!b", "a$b", "a%b", "a&b", "a'b", "a(b", "a*b", "a;b", "a<b", "a?b", "a^b", "a`b", "a{b", "a|b"} {
		if validServerName(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}

// §3: Agent Plugin cuts keep whole characters and add no marker.
func TestTakeBytes(t *testing.T) {
	if got := takeBytes(strings.Repeat("a", 999)+"é", 1000); len(got) != 999 {
		t.Errorf("%d", len(got))
	}
	if got := takeBytes(strings.Repeat("é", 500)+"overflow", 1000); got != strings.Repeat("é", 500) {
		t.Errorf("%q", got)
	}
	if s := strings.Repeat("x", 1100); takeBytes(s, 1100) != s {
		t.Error("fitting text changed")
	}
}
