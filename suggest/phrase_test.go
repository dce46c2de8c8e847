package suggest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolfind/toolfind/corpus"
	"github.com/toolfind/toolfind/search/bm25"
)

// word makes a candidate word as rankWords would: its stem, the casing
// the prompts use, the words that follow it.
func word(form, cased string, next ...string) candidateWord {
	w := candidateWord{Form: form, Stem: bm25.Stem(form), Cased: cased, Next: map[string]bool{}}
	for _, n := range next {
		w.Next[bm25.Stem(n)] = true
	}
	return w
}

func TestSentenceFor(t *testing.T) {
	disk := &corpus.Tool{Server: "azure", Name: "compute_disk_update"}
	find := &corpus.Tool{Server: "mongodb", Name: "find"}
	metrics := &corpus.Tool{Server: "azure", Name: "monitor_metrics_query"}
	for _, tt := range []struct {
		name  string
		tool  *corpus.Tool
		words []candidateWord
		want  string
	}{
		// Actions with the name's object, in the plural: "disk" is the
		// last word of compute_disk_update that is not an action.
		{"one action", disk, []candidateWord{word("resize", "resize")}, "Also use it to resize disks."},
		{"two actions", disk, []candidateWord{word("resize", ""), word("scale", "")}, "Also use it to resize or scale disks."},
		// An -ing or -ed form is written in the base form after "to".
		{"-ing form", disk, []candidateWord{word("resizing", "")}, "Also use it to resize disks."},
		// "find" is all of its name: no object.
		{"no object", find, []candidateWord{word("count", ""), word("aggregate", "")}, "Also use it when asked to count or aggregate."},
		// Other words, in the prompts' casing, "and"-joined.
		{"other words", disk, []candidateWord{word("vms", "VMs"), word("cost", "")}, "Also use it for VMs and cost."},
		{"three others", disk, []candidateWord{word("sku", "SKU"), word("tier", ""), word("size", "")}, "Also use it for SKU, tier and size."},
		{"both", disk, []candidateWord{word("resize", ""), word("sku", "SKU")}, "Also use it to resize disks, and for SKU."},
		// Words that follow each other in a prompt stay one phrase, in
		// the prompt's order, though ranked the other way.
		{"phrase", metrics, []candidateWord{word("insights", "Insights", "resource"), word("application", "Application", "insights")},
			"Also use it for Application Insights."},
		// A noun form of a verb's stem is a noun: "queries", "tags".
		{"noun form of a verb", metrics, []candidateWord{word("queries", "")}, "Also use it for queries."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := sentenceFor(tt.tool, tt.words)
			assert.Equal(t, tt.want, got)
			var added []string
			for _, w := range tt.words {
				added = append(added, w.Form)
			}
			assert.False(t, IsWordList(got, added), "every template is prose")
		})
	}
}

func TestObjectOf(t *testing.T) {
	for _, tt := range []struct{ server, name, want string }{
		{"azure", "compute_disk_update", "disks"},
		{"azure", "fileshares_fileshare_delete", "fileshares"},
		{"azure", "appconfig_kv_get", "KVs"}, // no vowel: an acronym
		{"azure", "policy_assignment_list", "assignments"},
		{"azure", "keyvault_secret_get", "secrets"},
		{"mongodb", "find", ""},                        // an action only
		{"mongodb", "delete-many", ""},                 // "many" names no object
		{"mongodb", "list-collections", "collections"}, // plural already
		{"mongodb", "mongodb-logs", "logs"},
		{"azure", "azure_get", ""}, // the server's name is no object
	} {
		assert.Equal(t, tt.want, objectOf(&corpus.Tool{Server: tt.server, Name: tt.name}), tt.name)
	}
	for in, want := range map[string]string{"disk": "disks", "policy": "policies", "key": "keys", "box": "boxes",
		"patch": "patches", "KV": "KVs", "settings": "settings"} {
		assert.Equal(t, want, pluralNoun(in), in)
	}
	assert.Equal(t, "", joinList(nil, "or"))
	assert.Equal(t, "a", joinList([]string{"a"}, "or"))
	assert.Equal(t, "a or b", joinList([]string{"a", "b"}, "or"))
	assert.Equal(t, "a, b and c", joinList([]string{"a", "b", "c"}, "and"))
}

func TestInsertSentence(t *testing.T) {
	const s = "Also use it for VMs."
	long := strings.Repeat("x", 990)
	for _, tt := range []struct{ name, desc, want string }{
		{"empty", "", s},
		{"one paragraph: at its end", "Lists VMs. Returns names.", "Lists VMs. Returns names. Also use it for VMs."},
		{"no period: one is added", "Delete a file share", "Delete a file share. Also use it for VMs."},
		{"trailing space trimmed", "Lists VMs.  ", "Lists VMs. Also use it for VMs.  "},
		// The first paragraph ends at a line break after a sentence …
		{"paragraphs", "Gets a key.\nUSE FOR: keys.", "Gets a key. Also use it for VMs.\nUSE FOR: keys."},
		{"blank line", "Gets a key\n\nMore.", "Gets a key. Also use it for VMs.\n\nMore."},
		// … not at a line break inside a sentence.
		{"wrapped sentence", "Lists all resources\nin the group. More.", "Lists all resources\nin the group. More. Also use it for VMs."},
		// Past the 1,000-byte cut: after the first sentence instead.
		{"long paragraph", "Get prices. " + long, "Get prices. Also use it for VMs. " + long},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := insertSentence(tt.desc, s)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, 1, strings.Count(got, s))
		})
	}
}

func TestIsWordList(t *testing.T) {
	for _, tt := range []struct {
		sentence string
		added    []string
		want     bool
	}{
		// The old lead-ins: nothing but the words.
		{"Groceries, large, ordering, upload.", []string{"groceries", "large", "ordering", "upload"}, true},
		{"Say.", []string{"say"}, true},
		{"Mbps, staging.", []string{"mbps", "staging"}, true},
		{"Vms and cost.", []string{"vms", "cost"}, true},
		// Other words, but no verb-led clause.
		{"Keywords: vms, cost.", []string{"vms", "cost"}, true},
		{"also use it for vms.", []string{"vms"}, true}, // no capital
		{"Also use it for VMs", []string{"vms"}, true},  // no period
		{"Also use it for.", nil, true},                 // the clause leads to nothing
		// The templates.
		{"Also use it for VMs.", []string{"vms"}, false},
		{"Also use it to resize disks.", []string{"resize"}, false},
		{"Also use it when asked to count or total.", []string{"count", "total"}, false},
		{"Also use it to resize disks, and for SKU.", []string{"resize", "sku"}, false},
		// Every sentence is judged.
		{"Also use it for VMs. Cost, price.", []string{"vms", "cost", "price"}, true},
	} {
		assert.Equal(t, tt.want, IsWordList(tt.sentence, tt.added), tt.sentence)
	}
}

func TestCasedForm(t *testing.T) {
	for _, tt := range []struct{ text, form, want string }{
		{"Show me all VMs in my subscription", "vms", "VMs"},
		{"Resize disk <d> to 512 GB", "resize", "resize"}, // the first word, capitalised as a sentence starts
		{"List MySQL servers", "mysql", "MySQL"},
		{"Check the SUBSCRIPTION now", "subscription", "subscription"}, // shouting
		{"List SKU options", "sku", "SKU"},
		{"listPullRequests", "pull", ""}, // a camelCase part is no whole word
	} {
		assert.Equal(t, tt.want, casedForm(tt.text, tt.form), tt.text)
	}
	assert.Equal(t, []string{"insight"}, following("for my Application Insights resource", "application"))
}

func TestOwnWord(t *testing.T) {
	waf := &corpus.Tool{Name: "wellarchitectedframework_serviceguide_get",
		Description: "Get Well-Architected Framework guidance for an Azure service."}
	assert.True(t, initialsOf("waf", waf), "W(ell) A(rchitected) F(ramework)")
	assert.False(t, initialsOf("wag", waf))
	assert.False(t, initialsOf("w", waf), "one letter is no acronym")
	vm := &corpus.Tool{Name: "compute_vm_get"}
	assert.True(t, nameRelated("vms", vm), "a longer form of the name's vm")
	assert.False(t, nameRelated("target", vm), "get is an action: not counted")
	cfg := &corpus.Tool{Name: "appconfig_kv_get"}
	assert.True(t, nameRelated("config", cfg), "a part of appconfig")
	assert.False(t, nameRelated("app", cfg), "three letters are too short a part")
	for form, want := range map[string]bool{"resize": true, "resizing": true, "enabled": true, "queries": false, "disk": false} {
		_, ok := actionBase(form, bm25.Stem(form))
		assert.Equal(t, want, ok, form)
	}
}
