package lint

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/toolfind/toolfind/corpus"
)

// Config selects rules and sets their severities. The file form
// (.toolfind.yaml) is:
//
//	lint:
//	  min-severity: warning      # info | warning | error
//	  fail-on: error             # none | info | warning | error
//	  rules:
//	    server-name: error       # a severity, or off / on
//	    claude-name-unrelated: off
//
// Command-line flags (--enable, --disable, --min-severity, --fail-on) are
// applied on top of the file.
type Config struct {
	// Rules maps a rule id to "off", "on" or a severity.
	Rules map[string]string
	// MinSeverity hides findings below it ("" is warning).
	MinSeverity string
	// FailOn is the severity from which a finding fails the run ("" is none).
	FailOn string
}

type configFile struct {
	Lint struct {
		MinSeverity string            `yaml:"min-severity"`
		FailOn      string            `yaml:"fail-on"`
		Rules       map[string]string `yaml:"rules"`
	} `yaml:"lint"`
}

// ParseConfig reads a configuration file's bytes; file names it in errors,
// which give the line of the bad entry.
func ParseConfig(file string, data []byte) (Config, error) {
	var node yaml.Node
	if err := yaml.Unmarshal(data, &node); err != nil {
		return Config{}, fmt.Errorf("%s: %w", file, err)
	}
	var cf configFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cf); err != nil && !errors.Is(err, io.EOF) {
		return Config{}, fmt.Errorf("%s: %w", file, err)
	}
	cfg := Config{Rules: cf.Lint.Rules, MinSeverity: cf.Lint.MinSeverity, FailOn: cf.Lint.FailOn}
	if err := cfg.check(); err != nil {
		return Config{}, fmt.Errorf("%s: line %d: %w", file, lineOf(&node, err), err)
	}
	return cfg, nil
}

// configError names the key whose value is wrong.
type configError struct {
	key string
	msg string
}

func (e *configError) Error() string { return e.key + ": " + e.msg }

// lineOf finds the line of the key a configError names (0 when unknown).
func lineOf(n *yaml.Node, err error) int {
	var ce *configError
	if !errors.As(err, &ce) {
		return 0
	}
	var find func(*yaml.Node) int
	find = func(n *yaml.Node) int {
		for i, c := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 0 && c.Value == ce.key {
				return c.Line
			}
			if l := find(c); l > 0 {
				return l
			}
		}
		return 0
	}
	return find(n)
}

// check validates rule ids and values.
func (c Config) check() error {
	if _, err := ParseSeverity(c.MinSeverity, "warning"); err != nil {
		return &configError{"min-severity", err.Error()}
	}
	if c.FailOn != "" && c.FailOn != "none" {
		if _, err := ParseSeverity(c.FailOn, ""); err != nil {
			return &configError{"fail-on", err.Error()}
		}
	}
	ids := make([]string, 0, len(c.Rules))
	for id := range c.Rules {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if _, ok := Rule(id); !ok {
			return &configError{id, "unknown rule (" + unknownRuleHint(id) + ")"}
		}
		switch v := strings.ToLower(c.Rules[id]); v {
		case "off", "on", "true", "false":
		default:
			if _, err := ParseSeverity(v, ""); err != nil {
				return &configError{id, fmt.Sprintf("%q: want off, on, info, warning or error", c.Rules[id])}
			}
		}
	}
	return nil
}

// ParseSeverity reads "info" (or "note"), "warning" or "error"; "" gives def.
func ParseSeverity(s, def string) (corpus.Severity, error) {
	if s == "" {
		s = def
	}
	switch strings.ToLower(s) {
	case "info", "note":
		return corpus.Info, nil
	case "warning", "warn":
		return corpus.Warning, nil
	case "error":
		return corpus.Error, nil
	}
	return 0, fmt.Errorf("severity %q: want info, warning or error", s)
}

// Set turns rules on or off ("all" for every rule); an unknown id is an
// error naming it.
func (c *Config) Set(ids []string, on bool) error {
	val := "off"
	if on {
		val = "on"
	}
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" {
			continue
		}
		if c.Rules == nil {
			c.Rules = map[string]string{}
		}
		if id == "all" {
			for _, r := range Rules {
				c.Rules[r.ID] = val
			}
			continue
		}
		if _, ok := Rule(id); !ok {
			return fmt.Errorf("unknown rule %q (%s)", id, unknownRuleHint(id))
		}
		if cur, set := c.Rules[id]; on && set && cur != "off" && cur != "false" {
			continue // keep a configured severity
		}
		c.Rules[id] = val
	}
	return c.check()
}

func (c Config) enabled(rule string) bool {
	switch strings.ToLower(c.Rules[rule]) {
	case "off", "false":
		return false
	}
	return true
}

func (c Config) severity(rule string) (corpus.Severity, bool) {
	v := c.Rules[rule]
	if v == "" {
		return 0, false
	}
	s, err := ParseSeverity(v, "")
	return s, err == nil
}
