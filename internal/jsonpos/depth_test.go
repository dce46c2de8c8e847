package jsonpos

import (
	"strings"
	"testing"
)

// TestIndexDepth: a 9,000-deep array is read whole, but only its first
// MaxIndexDepth levels are indexed (the root and one pointer per level),
// so the index stays linear in the input.
func TestIndexDepth(t *testing.T) {
	const n = 9000
	data := []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
	ix, err := Build(data)
	if err != nil {
		t.Fatal(err)
	}
	// Levels 0..MaxIndexDepth: the root "" and "/0", "/0/0", …
	if ix.Len() != MaxIndexDepth+1 {
		t.Errorf("%d values indexed, want %d", ix.Len(), MaxIndexDepth+1)
	}
	deepest := strings.Repeat("/0", MaxIndexDepth)
	if p, ok := ix.Lookup(deepest); !ok || p.Value != MaxIndexDepth {
		t.Errorf("Lookup(depth %d) = %+v, %v; want the value at offset %d", MaxIndexDepth, p, ok, MaxIndexDepth)
	}
	if _, ok := ix.Lookup(deepest + "/0"); ok {
		t.Errorf("a value past MaxIndexDepth is indexed")
	}
	// Over maxDepth the document is refused, as before.
	if _, err := Build([]byte(strings.Repeat("[", maxDepth+2) + strings.Repeat("]", maxDepth+2))); err == nil || !strings.Contains(err.Error(), "nested deeper than 10000") {
		t.Errorf("error %v", err)
	}
}
