package lint

import (
	"net/url"
	"path/filepath"
	"runtime"
	"testing"
)

func TestFileURI(t *testing.T) {
	tests := []struct{ path, want string }{
		{"catalog.json", "catalog.json"},
		{"testdata/hostile.json", "testdata/hostile.json"},
		{"../up/c.json", "../up/c.json"},
		{"a #1.json", "a%20%231.json"},   // space 20, # 23: not a fragment
		{"100%.json", "100%25.json"},     // % 25: not an escape
		{"q?.json", "q%3F.json"},         // ? 3F: not a query
		{"c:x.json", "c%3Ax.json"},       // : 3A: not a scheme "c"
		{"é.json", "%C3%A9.json"},        // é is C3 A9 in UTF-8
		{"日/x.json", "%E6%97%A5/x.json"}, // 日 is E6 97 A5
		{"a+b=c&d;e,f!.json", "a%2Bb%3Dc%26d%3Be%2Cf%21.json"},
	}
	if runtime.GOOS != "windows" {
		tests = append(tests,
			struct{ path, want string }{"/tmp/a b/#c.json", "file:///tmp/a%20b/%23c.json"},
			struct{ path, want string }{"/x.json", "file:///x.json"},
		)
	} else {
		tests = append(tests, struct{ path, want string }{`C:\a b\c.json`, "file:///C:/a%20b/c.json"})
	}
	for _, tt := range tests {
		got := FileURI(tt.path)
		if got != tt.want {
			t.Errorf("FileURI(%q) = %q, want %q", tt.path, got, tt.want)
		}
		checkURI(t, tt.path, got)
	}
}

// checkURI: u parses as a URI reference with no query or fragment, and
// its path decodes to the path given.
func checkURI(t *testing.T, path, u string) {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatalf("FileURI(%q) = %q: not a URI reference: %v", path, u, err)
	}
	if p.RawQuery != "" || p.Fragment != "" || p.Opaque != "" || p.Host != "" {
		t.Fatalf("FileURI(%q) = %q: parsed as %#v", path, u, p)
	}
	want := filepath.ToSlash(path)
	if filepath.IsAbs(path) {
		if p.Scheme != "file" {
			t.Fatalf("FileURI(%q) = %q: scheme %q, want file", path, u, p.Scheme)
		}
		if v := filepath.VolumeName(path); v != "" {
			want = "/" + want
		}
	} else if p.Scheme != "" {
		t.Fatalf("FileURI(%q) = %q: a relative path got scheme %q", path, u, p.Scheme)
	}
	if p.Path != want {
		t.Fatalf("FileURI(%q) = %q: decodes to %q", path, u, p.Path)
	}
}

// FuzzFileURI: any file name is a URI reference that decodes back to it.
func FuzzFileURI(f *testing.F) {
	for _, s := range []string{"a.json", "a #b%c?.json", "/abs/é.json", "c:d", "./x", "..%2F"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		if path == "" {
			return
		}
		checkURI(t, path, FileURI(path))
	})
}
