package clientconfig

import (
	"path/filepath"
	"strings"
	"unicode"

	"github.com/toolfind/toolfind/internal/lazyre"
)

// expander substitutes a client's placeholders in one string; it returns
// the placeholders left without a value.
type expander func(s string) (string, []string)

// noExpand leaves text as written (Claude Desktop, Codex).
func noExpand(s string) (string, []string) { return s, nil }

var (
	claudeVar = lazyre.New(`\$\{([^}:]+)(?::-([^}]*))?\}`)
	geminiVar = lazyre.New(`\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([^}]+)\})`)
	vscodeVar = lazyre.New(`\$\{([^}]*)\}`)
	copVar    = lazyre.New(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)
	ocVar     = lazyre.New(`\{(env|file):([^}]+)\}`)
)

// claudeExpand: ${VAR} and ${VAR:-default}; an unset ${VAR} without a
// default stays as written (Claude Code 2.1: the server receives the
// literal text), $VAR is never expanded.
func claudeExpand(env func(string) (string, bool)) expander {
	return func(s string) (string, []string) {
		return claudeVar.Re().ReplaceAllStringFunc(s, func(m string) string {
			g := claudeVar.Re().FindStringSubmatch(m)
			if v, ok := env(g[1]); ok && (v != "" || !strings.Contains(m, ":-")) {
				return v
			}
			if strings.Contains(m, ":-") {
				return g[2]
			}
			return m
		}), nil
	}
}

// geminiExpand: $VAR and ${VAR}; an unset variable stays as written
// (resolveEnvVarsInString keeps the match).
func geminiExpand(env func(string) (string, bool)) expander {
	return func(s string) (string, []string) {
		return geminiVar.Re().ReplaceAllStringFunc(s, func(m string) string {
			g := geminiVar.Re().FindStringSubmatch(m)
			name := g[1] + g[2]
			if v, ok := env(name); ok {
				return v
			}
			return m
		}), nil
	}
}

// copilotExpand: ${VAR}; unset stays as written.
func copilotExpand(env func(string) (string, bool)) expander {
	return func(s string) (string, []string) {
		return copVar.Re().ReplaceAllStringFunc(s, func(m string) string {
			if v, ok := env(m[2 : len(m)-1]); ok {
				return v
			}
			return m
		}), nil
	}
}

// InputEnv is the environment variable that gives VS Code's ${input:id}
// its value: TOOLFIND_INPUT_ and the id upper-cased, every character other
// than a letter or digit as '_' ("github-token" → TOOLFIND_INPUT_GITHUB_TOKEN).
func InputEnv(id string) string {
	return "TOOLFIND_INPUT_" + strings.Map(func(r rune) rune {
		if r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return unicode.ToUpper(r)
		}
		return '_'
	}, id)
}

// vscodeExpand: VS Code's predefined variables in mcp.json: ${env:VAR}
// (empty when unset), ${input:id} (from InputEnv(id)), ${workspaceFolder},
// ${workspaceFolderBasename}, ${userHome}, ${pathSeparator} and ${/}. Any
// other variable (${config:…}, ${command:…}) has no value here.
func vscodeExpand(env func(string) (string, bool), workspace, home string) expander {
	return func(s string) (string, []string) {
		var missing []string
		out := vscodeVar.Re().ReplaceAllStringFunc(s, func(m string) string {
			name := m[2 : len(m)-1]
			switch {
			case strings.HasPrefix(name, "env:"):
				v, _ := env(name[4:])
				return v
			case strings.HasPrefix(name, "input:"):
				key := InputEnv(name[6:])
				if v, ok := env(key); ok {
					return v
				}
				missing = append(missing, m+" (set "+key+")")
				return m
			case name == "workspaceFolder":
				return workspace
			case name == "workspaceFolderBasename":
				return filepath.Base(workspace)
			case name == "userHome":
				return home
			case name == "pathSeparator" || name == "/":
				return string(filepath.Separator)
			}
			missing = append(missing, m+" (toolfind has no value for it)")
			return m
		})
		return out, missing
	}
}

// opencodeExpand: {env:VAR} (empty when unset) and {file:PATH} (the
// file's contents, trimmed; PATH relative to the config's folder, ~/ the
// home folder).
func opencodeExpand(env func(string) (string, bool), read func(string) ([]byte, error), dir, home string) expander {
	return func(s string) (string, []string) {
		var missing []string
		out := ocVar.Re().ReplaceAllStringFunc(s, func(m string) string {
			g := ocVar.Re().FindStringSubmatch(m)
			if g[1] == "env" {
				v, _ := env(g[2])
				return v
			}
			p := g[2]
			if strings.HasPrefix(p, "~/") {
				p = filepath.Join(home, p[2:])
			} else if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			data, err := read(p)
			if err != nil {
				missing = append(missing, m+" (cannot read "+p+")")
				return m
			}
			return strings.TrimSpace(string(data))
		})
		return out, missing
	}
}
