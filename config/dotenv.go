package config

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// .env files work as in Gemini CLI, with companion's limits:
//   - the project's (.gemini/.env, else .env, in the workspace root) is read
//     only in a trusted workspace, then the user's (~/.gemini/.env, else
//     ~/.env); a variable set in the process environment always wins, and
//     the project's file wins over the user's;
//   - the values feed companion's own configuration lookups only (API
//     keys, model, Vertex AI project): they are never put into the
//     environment of shell commands, hooks or MCP servers, which get
//     companion's own environment as before;
//   - a project's .env cannot set where requests go or what runs (base
//     URLs, provider, scripted model, log and state paths), the same rule
//     as for a project's settings: a repository must not redirect the
//     user's credentials. projectEnvKey says what it may set.

// projectEnvKey reports whether a project's .env may supply variable k.
func projectEnvKey(k string) bool {
	switch k {
	case "GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_CLOUD_PROJECT",
		"GOOGLE_CLOUD_LOCATION", "GEMINI_MODEL", "OPENAI_API_KEY":
		return true
	}
	return false
}

// dotEnv is one .env file's variables.
type dotEnv struct {
	Path string
	Vars map[string]string
}

// envLayer looks variables up in the process environment, then in .env
// files in order.
type envLayer struct {
	getenv func(string) string
	files  []dotEnv
}

// lookup returns k's value and where it came from ("env K", or the .env
// file); "" when unset.
func (e envLayer) lookup(k string) (string, string) {
	if e.getenv != nil {
		if v := e.getenv(k); v != "" {
			return v, "env " + k
		}
	}
	for _, f := range e.files {
		if v := f.Vars[k]; v != "" {
			return v, f.Path + " (" + k + ")"
		}
	}
	return "", ""
}

// readDotEnv reads the first of dir/.gemini/.env and dir/.env that
// exists; ok is false when neither does. only, when set, keeps just the
// variables it names.
func readDotEnv(dir string, only func(string) bool) (dotEnv, bool) {
	if dir == "" {
		return dotEnv{}, false
	}
	for _, p := range []string{filepath.Join(dir, ".gemini", ".env"), filepath.Join(dir, ".env")} {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		vars := parseDotEnv(data)
		for k := range vars {
			if only != nil && !only(k) {
				delete(vars, k)
			}
		}
		return dotEnv{Path: p, Vars: vars}, true
	}
	return dotEnv{}, false
}

// parseDotEnv reads KEY=VALUE lines: blank lines and # comments skipped,
// an optional "export ", values in single quotes kept as written, in
// double quotes with \n and \\ unescaped, bare values cut at " #".
func parseDotEnv(data []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			continue
		}
		out[k] = dotEnvValue(strings.TrimSpace(v))
	}
	return out
}

// dotEnvValue unquotes one .env value; a comment may follow a quoted
// value.
func dotEnvValue(v string) string {
	if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') {
		if end := strings.IndexByte(v[1:], v[0]); end >= 0 {
			inner := v[1 : end+1]
			if v[0] == '"' {
				inner = strings.NewReplacer(`\n`, "\n", `\\`, `\`).Replace(inner)
			}
			return inner
		}
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v
}
