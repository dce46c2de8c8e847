package lazyre

import (
	"fmt"
	"regexp"
	"sync"
	"testing"
)

func TestReCompilesOnceOnFirstUse(t *testing.T) {
	r := New(`^a(b+)c$`)
	if r.re != nil {
		t.Fatal("New compiled the expression eagerly")
	}
	if got := r.String(); got != `^a(b+)c$` {
		t.Fatalf("String() = %q, want the source text", got)
	}
	if r.re != nil {
		t.Fatal("String compiled the expression")
	}
	first := r.Re()
	if first == nil || first.String() != `^a(b+)c$` {
		t.Fatalf("Re() = %v, want the compiled source text", first)
	}
	if got := first.FindStringSubmatch("abbbc"); len(got) != 2 || got[1] != "bbb" {
		t.Fatalf("FindStringSubmatch(abbbc) = %q, want [abbbc bbb]", got)
	}
	if r.Re() != first {
		t.Fatal("second Re() returned a different *regexp.Regexp")
	}
}

func TestReConcurrentFirstUse(t *testing.T) {
	r := New(`x+`)
	var wg sync.WaitGroup
	got := make([]*regexp.Regexp, 8)
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = r.Re() }()
	}
	wg.Wait()
	for i, re := range got {
		if re != got[0] {
			t.Fatalf("goroutine %d got a different *regexp.Regexp", i)
		}
	}
}

func TestReBadExpressionPanicsOnFirstUse(t *testing.T) {
	r := New(`(`) // declaring it must not panic
	defer func() {
		if recover() == nil {
			t.Fatal("Re() of `(` did not panic")
		}
	}()
	r.Re()
}

func ExampleRegexp() {
	word := New(`[a-z]+`) // not compiled yet
	fmt.Println(word.Re().FindString("42 apples"))
	// Output: apples
}
