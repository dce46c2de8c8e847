package lint_test

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/toolfind/toolfind"
	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/lint"
)

// TestRenameIsUnique: the rename lint proposes is no name the server (or
// the catalog, for a server) has already, as written or as a client
// rewrites it (without case), nor another proposal. Server "users" has
// "get.user", "get_user", "get user" and "Get_User_2": safeName gives
// "get_user" for both bad names, taken by the tool get_user; "get_user_2"
// is taken by Get_User_2 without case; so get.user gets "get_user_3" and
// get user "get_user_4" (catalog order). Servers "my.srv" and "my_srv":
// "my.srv" gets "my_srv_2"; tool "x.y" of my_srv gets "x_y" (its own
// rewritten name does not take it). Without the check both tools were
// told "get_user" and the server "my_srv".
func TestRenameIsUnique(t *testing.T) {
	data := `{"servers":[
 {"name":"users","tools":[
  {"name":"get.user","description":"Get a user by id.","inputSchema":{"type":"object"}},
  {"name":"get_user","description":"Get the user record.","inputSchema":{"type":"object"}},
  {"name":"get user","description":"Get a user.","inputSchema":{"type":"object"}},
  {"name":"Get_User_2","description":"Another.","inputSchema":{"type":"object"}}]},
 {"name":"my.srv","tools":[{"name":"a","description":"A.","inputSchema":{"type":"object"}}]},
 {"name":"my_srv","tools":[{"name":"x.y","description":"X.","inputSchema":{"type":"object"}}]}]}`
	servers, _, err := corpus.ParseCatalog("cat.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	cat := &corpus.Catalog{}
	if err := cat.Add(servers...); err != nil {
		t.Fatal(err)
	}
	cat.Revalidate()
	sims, err := toolfind.Clients(cat, pinned, nil)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := lint.Run(context.Background(), cat, sims, lint.Options{ReadFile: func(string) ([]byte, error) { return []byte(data), nil }})
	if err != nil {
		t.Fatal(err)
	}
	var fixes []string
	for _, f := range rep.Findings {
		if strings.HasPrefix(f.Fix, "rename the ") {
			fixes = append(fixes, f.Fix)
		}
	}
	sort.Strings(fixes)
	want := []string{
		`rename the server to "my_srv_2"`,
		`rename the tool to "get_user_3"`, // get_user taken; get_user_2 taken (Get_User_2, without case)
		`rename the tool to "get_user_4"`, // … and by the proposal for get.user
		`rename the tool to "x_y"`,
	}
	if strings.Join(fixes, "\n") != strings.Join(want, "\n") {
		t.Errorf("fixes\n%s\nwant\n%s", strings.Join(fixes, "\n"), strings.Join(want, "\n"))
	}
}
