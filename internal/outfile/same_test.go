package outfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSame(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("a.json", []byte("a"), 0o644)
	os.WriteFile("b.json", []byte("b"), 0o644)
	os.Mkdir("sub", 0o755)
	if err := os.Symlink("a.json", "link.json"); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	os.Link("a.json", "hard.json")
	os.Symlink(".", "here") // a folder link
	tests := []struct {
		a, b string
		want bool
	}{
		{"a.json", "a.json", true},
		{"a.json", "./a.json", true},
		{"a.json", "sub/../a.json", true},
		{"a.json", filepath.Join(dir, "a.json"), true},
		{"a.json", "link.json", true},       // a symbolic link and its target
		{"a.json", "hard.json", true},       // two hard links
		{"a.json", "here/a.json", true},     // through a linked folder
		{"new.json", "./new.json", true},    // neither exists yet
		{"new.json", "here/new.json", true}, // not yet, through a linked folder
		{"a.json", "b.json", false},
		{"a.json", "new.json", false},
		{"new.json", "other.json", false},
		{"new.json", "sub/new.json", false},
	}
	for _, tt := range tests {
		if got := Same(tt.a, tt.b); got != tt.want {
			t.Errorf("Same(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := Same(tt.b, tt.a); got != tt.want {
			t.Errorf("Same(%q, %q) = %v, want %v", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestWithin(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.MkdirAll("cats/deep", 0o755)
	os.WriteFile("cats/a.json", nil, 0o644)
	os.WriteFile("cats/deep/b.json", nil, 0o644)
	os.WriteFile("out.json", nil, 0o644)
	os.Symlink("cats", "catlink")
	os.Symlink("../out.json", "cats/linked.json") // a catalog in cats that lives elsewhere
	tests := []struct {
		path, dir  string
		deep, want bool
	}{
		{"cats/a.json", "cats", false, true},
		{"catlink/a.json", "cats", false, true},
		{"cats/a.json", "catlink", false, true},
		{"cats/deep/b.json", "cats", false, false}, // one level only
		{"cats/deep/b.json", "cats", true, true},
		{"cats/new.json", "cats", false, false}, // not there yet: not an input
		{"out.json", "cats", true, false},
		{"cats", "cats", true, false}, // the folder itself
		{"cats/linked.json", "cats", false, true},
	}
	for _, tt := range tests {
		if got := Within(tt.path, tt.dir, tt.deep); got != tt.want {
			t.Errorf("Within(%q, %q, %v) = %v, want %v", tt.path, tt.dir, tt.deep, got, tt.want)
		}
	}
}
