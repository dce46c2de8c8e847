package suggest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolfind/toolfind/corpus"
)

func TestSetMember(t *testing.T) {
	tests := []struct {
		name, obj, key, value, want string
	}{
		{"replace in place, spacing kept", `{"name": "a",  "description" : "old", "x": 1}`, "description", `"new"`,
			`{"name": "a",  "description" : "new", "x": 1}`},
		{"append", `{"name":"a"}`, "title", `"T"`, `{"name":"a","title":"T"}`},
		{"append to empty", `{ }`, "title", `"T"`, `{ "title":"T"}`},
		// JSON.parse and serde_json keep the last of duplicate keys, so
		// that is the one edited.
		{"duplicate keys: the last", `{"description":"a","description":"b"}`, "description", `"c"`,
			`{"description":"a","description":"c"}`},
		{"nested value replaced whole", `{"_meta":{"k":[1,2]},"n":1}`, "_meta", `{}`, `{"_meta":{},"n":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := setMember([]byte(tt.obj), tt.key, []byte(tt.value))
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
	_, err := setMember([]byte(`[1]`), "a", []byte("1"))
	assert.EqualError(t, err, "not a JSON object")
}

func TestApplyChangeHint(t *testing.T) {
	tests := []struct {
		name, raw, want string
	}{
		{"no _meta", `{"name":"a"}`, `{"name":"a","_meta":{"anthropic/searchHint":"memo stash"}}`},
		{"other _meta members kept", `{"name":"a","_meta":{"x":true}}`, `{"name":"a","_meta":{"x":true,"anthropic/searchHint":"memo stash"}}`},
		{"hint replaced", `{"_meta":{"anthropic/searchHint":"memo"},"name":"a"}`, `{"_meta":{"anthropic/searchHint":"memo stash"},"name":"a"}`},
		// A null _meta is no object: it becomes one holding the hint.
		{"null _meta", `{"name":"a","_meta":null}`, `{"name":"a","_meta":{"anthropic/searchHint":"memo stash"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := applyChange([]byte(tt.raw), Change{Field: Hint, After: "memo stash"})
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

func TestEditToolReadsBack(t *testing.T) {
	servers, _, err := corpus.ParseCatalog("t.json", []byte(`{"server":"s","tools":[
		{"name":"x","description":"One."},
		{"name":"y","description":"Two <b>&</b>.","annotations":{"readOnlyHint":true}}]}`))
	require.NoError(t, err)
	tool := servers[0].Tools[1]
	got, err := editTool(tool, []Change{
		{Field: Description, After: "Stash, away. Two <b>&</b>."},
		{Field: Hint, After: "memo"},
		{Field: Title, After: "Y (stash)"},
	})
	require.NoError(t, err)
	assert.Equal(t, "Stash, away. Two <b>&</b>.", got.Description)
	assert.Equal(t, "Y (stash)", got.Title)
	hint, ok := got.MetaString(HintKey)
	assert.True(t, ok)
	assert.Equal(t, "memo", hint)
	assert.Equal(t, 1, got.Index, "the position is kept")
	assert.Equal(t, "s", got.Server)
	require.NotNil(t, got.Annotations.ReadOnlyHint, "other members are kept")
	// No HTML escaping: the bytes are what the author wrote.
	assert.Equal(t, `{"name":"y","description":"Stash, away. Two <b>&</b>.","annotations":{"readOnlyHint":true},"_meta":{"anthropic/searchHint":"memo"},"title":"Y (stash)"}`, string(got.Raw))
	assert.Equal(t, "Two <b>&</b>.", tool.Description, "the input tool is not modified")
}

func TestWithToolsCopiesOnlyEditedServers(t *testing.T) {
	servers, _, err := corpus.ParseCatalog("t.json", []byte(`{"servers":[{"name":"a","tools":[{"name":"x"}]},{"name":"b","tools":[{"name":"y"},{"name":"z"}]}]}`))
	require.NoError(t, err)
	cat := &corpus.Catalog{Servers: servers}
	edited, err := editTool(servers[1].Tools[1], []Change{{Field: Description, After: "Zed."}})
	require.NoError(t, err)
	out := withTools(cat, map[toolRef]*corpus.Tool{{"b", 1}: edited})
	assert.Same(t, servers[0], out.Servers[0], "an unedited server is shared")
	assert.NotSame(t, servers[1], out.Servers[1])
	assert.Same(t, servers[1].Tools[0], out.Servers[1].Tools[0])
	assert.Equal(t, "Zed.", out.Servers[1].Tools[1].Description)
	assert.Equal(t, "", cat.Servers[1].Tools[1].Description, "the input catalog is not modified")
}

func TestNaming(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"appconfig_kv_get", "Appconfig kv get"},
		{"listIssues", "List issues"},
		{"atlas-create-cluster", "Atlas create cluster"},
		{"get_me2FA", "Get me2 fa"},
		{"ëxport_data", "Ëxport data"}, // a whole rune capitalised
		{"", ""},
	} {
		assert.Equal(t, tt.want, humanize(tt.in), tt.in)
	}
	assert.Equal(t, "archive_note_stash_memo", renamed("archive_note", []string{"stash", "memo"}))
	assert.Equal(t, "archive-note-stash", renamed("archive-note", []string{"stash"}))
	assert.Equal(t, "archiveNoteStashMemo", renamed("archiveNote", []string{"stash", "memo"}))
	words := []candidateWord{{Form: "stash"}, {Form: "away"}}
	tool := &corpus.Tool{Name: "archive_note"}
	assert.Equal(t, "Archive note (stash, away)", titleFor(tool, words))
	tool.Title = "Archive"
	assert.Equal(t, "Archive (stash, away)", titleFor(tool, words))
}
