package search

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolfind/toolfind/internal/didyoumean"
)

// Release numbers and how a client release picks a profile.
//
// A client ships more releases than toolfind has profiles: a profile
// stands for every release from its own version up to the next profile's
// (specs/claude.md §0: "any release resolves to the newest profile not
// newer than it"). So "claude@2.1.330" is answered by claude@2.1.329, and a
// release newer than every profile by the newest profile, with a warning:
// nobody has checked that release yet.
//
// Versions are compared as dot-separated non-negative integers ("2.1.88" <
// "2.1.283"); a missing component counts as 0 ("2" == "2.0.0"). A leading
// "v" is ignored.

// ParseRelease reads a release number such as "2.1.332" or "v1.0". It
// returns an error for anything else (a pre-release suffix, a name).
func ParseRelease(s string) ([]int, error) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "v")
	if t == "" {
		return nil, errors.New("empty release number")
	}
	parts := strings.Split(t, ".")
	out := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || strings.TrimLeft(p, "0123456789") != "" {
			return nil, fmt.Errorf("release %q: component %q is not a number (want digits and dots, e.g. 2.1.332)", s, p)
		}
		out[i] = n
	}
	return out, nil
}

// CompareReleases compares two parsed release numbers: -1, 0 or +1.
func CompareReleases(a, b []int) int {
	for i := 0; i < max(len(a), len(b)); i++ {
		x, y := 0, 0
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// Resolution says which profile answers a requested client release.
type Resolution struct {
	// Requested is what was asked for, e.g. claude@2.1.330.
	Requested ClientID
	// Profile is the profile used, e.g. claude@2.1.329.
	Profile ClientID
	// Note explains a mapping to a different version (empty when the
	// release has its own profile or none was named).
	Note string
	// Warning is set when no profile is known to match the release: it is
	// newer (or older) than every profile of the client.
	Warning string
}

// releaseProfiles returns a client's profiles with numeric versions,
// oldest first, and their parsed versions.
func releaseProfiles(name string) ([]Profile, [][]int) {
	regMu.RLock()
	ps := slices.Clone(registry[name])
	regMu.RUnlock()
	type pv struct {
		p Profile
		v []int
	}
	var list []pv
	for _, p := range ps {
		if v, err := ParseRelease(p.ID.Version); err == nil {
			list = append(list, pv{p, v})
		}
	}
	slices.SortStableFunc(list, func(a, b pv) int { return CompareReleases(a.v, b.v) })
	profiles := make([]Profile, len(list))
	versions := make([][]int, len(list))
	for i, x := range list {
		profiles[i], versions[i] = x.p, x.v
	}
	return profiles, versions
}

// LookupRelease finds the profile for "name", "name@version" (a profile's
// own version) or "name@release" (any release number): the newest profile
// not newer than the release. A release newer than every profile gets the
// newest, older than every profile the oldest, each with a Warning.
func LookupRelease(s string) (Profile, Resolution, error) {
	id := ParseClientID(s)
	regMu.RLock()
	ps := registry[id.Name]
	regMu.RUnlock()
	for _, p := range ps {
		if (id.Version == "" && p.Default) || (id.Version != "" && p.ID.Version == id.Version) {
			return p, Resolution{Requested: id, Profile: p.ID}, nil
		}
	}
	if len(ps) > 0 && id.Version == "" {
		p := ps[len(ps)-1]
		return p, Resolution{Requested: id, Profile: p.ID}, nil
	}
	rel, err := ParseRelease(id.Version)
	if len(ps) == 0 || err != nil {
		hint := ""
		if len(ps) == 0 {
			regMu.RLock()
			hint = didyoumean.Hint(id.Name, clientNames())
			regMu.RUnlock()
		}
		return Profile{}, Resolution{}, fmt.Errorf("%w %q%s; known: %s", ErrNotFound, s, hint, knownList())
	}
	profiles, versions := releaseProfiles(id.Name)
	if len(profiles) == 0 {
		return Profile{}, Resolution{}, fmt.Errorf("%w %q; known: %s", ErrNotFound, s, knownList())
	}
	r := Resolution{Requested: id}
	i := len(profiles) - 1
	for i >= 0 && CompareReleases(versions[i], rel) > 0 {
		i--
	}
	check := ""
	if profiles[0].Verify {
		check = fmt.Sprintf("; run `toolfind verify --client %s` to compare it with the installed client", id.Name)
	}
	switch {
	case i < 0:
		p := profiles[0]
		r.Profile = p.ID
		r.Warning = fmt.Sprintf("%s is older than every %s profile; using %s, the oldest, which may not match it%s", id, id.Name, p.ID, check)
		return p, r, nil
	case i == len(profiles)-1 && CompareReleases(versions[i], rel) != 0:
		p := profiles[i]
		r.Profile = p.ID
		r.Warning = fmt.Sprintf("%s is newer than every %s profile; using %s, the newest, which may not match it%s", id, id.Name, p.ID, check)
		return p, r, nil
	}
	p := profiles[i]
	r.Profile = p.ID
	if p.ID.Version != id.Version {
		r.Note = fmt.Sprintf("%s uses profile %s, the newest profile not newer than %s (it covers %s)", id, p.ID, id.Version, Coverage(p))
	}
	return p, r, nil
}

// Coverage describes the releases a profile stands for: from its own
// version up to the next profile's, e.g. "2.1.329 – 2.1.331", "2.1.332 and
// later". A profile whose version is not a release number covers only
// itself.
func Coverage(p Profile) string {
	own, err := ParseRelease(p.ID.Version)
	if err != nil {
		return p.ID.Version + " only"
	}
	_, versions := releaseProfiles(p.ID.Name)
	var next []int
	for _, v := range versions {
		if CompareReleases(v, own) > 0 {
			next = v
			break
		}
	}
	if next == nil {
		return p.ID.Version + " and later"
	}
	// The release just before next, when it is well defined: next with its
	// last component less one (2.1.332 → 2.1.331).
	if last := next[len(next)-1]; last > 0 {
		prev := slices.Clone(next)
		prev[len(prev)-1] = last - 1
		if CompareReleases(prev, own) >= 0 {
			if CompareReleases(prev, own) == 0 {
				return p.ID.Version
			}
			return p.ID.Version + " – " + formatRelease(prev)
		}
	}
	return p.ID.Version + " up to " + formatRelease(next) + " (not included)"
}

func formatRelease(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ".")
}

// Resolutions resolves a client list as Resolve does and says, for each
// entry naming a release, which profile answers it (Note, Warning). Entries
// without anything to say are left out.
func Resolutions(spec string) ([]Resolution, error) {
	var out []Resolution
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" || part == "all" {
			continue
		}
		_, r, err := LookupRelease(part)
		if err != nil {
			return nil, err
		}
		if r.Note != "" || r.Warning != "" {
			out = append(out, r)
		}
	}
	return out, nil
}
