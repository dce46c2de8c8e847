package search

import (
	"errors"
	"fmt"
	"testing"
)

func claudeProfiles(t *testing.T) {
	t.Helper()
	var ps []Profile
	for _, v := range []string{"2.1.332", "2.1.329", "2.1.328", "2.1.283", "2.1.88"} {
		p := fakeProfile("claude", v, v == "2.1.332")
		p.Verify = true
		ps = append(ps, p)
	}
	withRegistry(t, append(ps, fakeProfile("grok", "1.0.0", true), fakeProfile("oc", "1.18.33", true), fakeProfile("oc", "2", false))...)
}

func TestParseRelease(t *testing.T) {
	tests := []struct {
		in   string
		want string // fmt of the slice, or "error"
	}{
		{"2.1.332", "[2 1 332]"},
		{"v1.0", "[1 0]"},
		{" 2 ", "[2]"},
		{"2.1.330-beta", "error"},
		{"2..1", "error"},
		{"+2.1", "error"},
		{"2.-1", "error"},
		{"latest", "error"},
		{"", "error"},
	}
	for _, tt := range tests {
		v, err := ParseRelease(tt.in)
		got := fmt.Sprint(v)
		if err != nil {
			got = "error"
		}
		if got != tt.want {
			t.Errorf("ParseRelease(%q) = %s (%v), want %s", tt.in, got, err, tt.want)
		}
	}
}

func TestCompareReleases(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"2.1.88", "2.1.283", -1}, // numeric, not text order
		{"2.1.332", "2.1.329", 1},
		{"2", "2.0.0", 0}, // missing components are 0
		{"1.18.33", "2", -1},
	}
	for _, tt := range tests {
		a, _ := ParseRelease(tt.a)
		b, _ := ParseRelease(tt.b)
		if got := CompareReleases(a, b); got != tt.want {
			t.Errorf("CompareReleases(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestLookupRelease(t *testing.T) {
	claudeProfiles(t)
	tests := []struct {
		spec, profile, note, warning string
	}{
		{"claude", "claude@2.1.332", "", ""},
		{"claude@2.1.328", "claude@2.1.328", "", ""},
		{"claude@2.1.330", "claude@2.1.329",
			"claude@2.1.330 uses profile claude@2.1.329, the newest profile not newer than 2.1.330 (it covers 2.1.329 – 2.1.331)", ""},
		{"claude@2.1.331", "claude@2.1.329", "claude@2.1.331 uses profile claude@2.1.329, the newest profile not newer than 2.1.331 (it covers 2.1.329 – 2.1.331)", ""},
		{"claude@2.1.333", "claude@2.1.332", "",
			"claude@2.1.333 is newer than every claude profile; using claude@2.1.332, the newest, which may not match it; run `toolfind verify --client claude` to compare it with the installed client"},
		{"claude@2.1.200", "claude@2.1.88", "claude@2.1.200 uses profile claude@2.1.88, the newest profile not newer than 2.1.200 (it covers 2.1.88 – 2.1.282)", ""},
		{"claude@2.0.1", "claude@2.1.88", "",
			"claude@2.0.1 is older than every claude profile; using claude@2.1.88, the oldest, which may not match it; run `toolfind verify --client claude` to compare it with the installed client"},
		// No verifier for grok: the warning does not name one.
		{"grok@1.2", "grok@1.0.0", "", "grok@1.2 is newer than every grok profile; using grok@1.0.0, the newest, which may not match it"},
		// oc@2 is the newest by number although not the default.
		{"oc@1.20.0", "oc@1.18.33", "oc@1.20.0 uses profile oc@1.18.33, the newest profile not newer than 1.20.0 (it covers 1.18.33 up to 2 (not included))", ""},
	}
	for _, tt := range tests {
		p, r, err := LookupRelease(tt.spec)
		if err != nil {
			t.Errorf("%s: %v", tt.spec, err)
			continue
		}
		if p.ID.String() != tt.profile || r.Profile != p.ID || r.Note != tt.note || r.Warning != tt.warning {
			t.Errorf("%s: got %s\n note    %q\n warning %q\nwant %s\n note    %q\n warning %q", tt.spec, p.ID, r.Note, r.Warning, tt.profile, tt.note, tt.warning)
		}
	}
	for _, bad := range []string{"claude@latest", "claude@2.1.330-beta", "cursor@1.0"} {
		if _, _, err := LookupRelease(bad); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: err %v, want ErrNotFound", bad, err)
		}
	}
}

func TestCoverage(t *testing.T) {
	claudeProfiles(t)
	tests := []struct{ id, want string }{
		{"claude@2.1.332", "2.1.332 and later"},
		{"claude@2.1.329", "2.1.329 – 2.1.331"},
		{"claude@2.1.328", "2.1.328"}, // the next profile is 2.1.329
		{"claude@2.1.283", "2.1.283 – 2.1.327"},
		{"claude@2.1.88", "2.1.88 – 2.1.282"},
		{"oc@1.18.33", "1.18.33 up to 2 (not included)"}, // 2 less one is 1, below 1.18.33
		{"oc@2", "2 and later"},
	}
	for _, tt := range tests {
		p, err := Lookup(tt.id)
		if err != nil {
			t.Fatal(err)
		}
		if got := Coverage(p); got != tt.want {
			t.Errorf("Coverage(%s) = %q, want %q", tt.id, got, tt.want)
		}
	}
	if got := Coverage(fakeProfile("x", "nightly", true)); got != "nightly only" {
		t.Errorf("non-numeric: %q", got)
	}
}

func TestResolveReleases(t *testing.T) {
	claudeProfiles(t)
	ps, err := Resolve("claude@2.1.330,claude@2.1.329,claude@2.1.340")
	if err != nil || len(ps) != 2 || ps[0].ID.Version != "2.1.329" || ps[1].ID.Version != "2.1.332" {
		t.Fatalf("Resolve: %v %v", ps, err)
	}
	rs, err := Resolutions("all, claude@2.1.330,claude@2.1.329,claude@2.1.340")
	if err != nil || len(rs) != 2 || rs[0].Note == "" || rs[1].Warning == "" {
		t.Errorf("Resolutions: %+v %v", rs, err)
	}
	if _, err := Resolutions("claude@x"); err == nil {
		t.Error("Resolutions accepted claude@x")
	}
}

func FuzzParseRelease(f *testing.F) {
	for _, s := range []string{"2.1.332", "v1", "", "1..2", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseRelease(s)
		if err != nil {
			return
		}
		if CompareReleases(v, v) != 0 {
			t.Fatalf("%q not equal to itself", s)
		}
		w, err := ParseRelease(formatRelease(v))
		if err != nil || CompareReleases(v, w) != 0 {
			t.Fatalf("%q: round trip %v -> %v (%v)", s, v, w, err)
		}
	})
}
