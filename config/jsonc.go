package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/tailscale/hujson"
)

// Settings files are JSON with the two things people write in them by
// hand: comments (// and /* */) and trailing commas. The text is read
// with tailscale/hujson, which blanks those out byte for byte, so offsets
// in the standard JSON are offsets in the file and an error can name the
// line and column the user sees.
//
// String values may name environment variables as ${VAR}, $VAR or
// ${VAR:-default}; they are replaced with the variable's value when it
// is set (or the default) and left as written when not (so a stray "$"
// survives). The variables come from the process environment only, not
// from .env files. Keys are never
// expanded. A project's settings are only read in a trusted workspace, so
// an untrusted repository cannot make companion expand anything.

// hujsonPos picks the position out of hujson's error text. It is compiled
// on first use, not at package init: start-up runs before any settings
// file is read (see bench/startup_test.go).
var hujsonPos = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^hujson: line (\d+), column (\d+): (.*)$`)
})

// decodeSettings decodes the settings text data, read from path, into v:
// comments and trailing commas allowed, variables in string values
// expanded with getenv (nil expands nothing). Errors name path, line and
// column.
func decodeSettings(path string, data []byte, getenv func(string) string, v any) error {
	val, err := hujson.Parse(bytes.Clone(data)) // Standardize writes into the text it parsed
	if err != nil {
		if m := hujsonPos().FindStringSubmatch(err.Error()); m != nil {
			return fmt.Errorf("%s:%s:%s: %s", path, m[1], m[2], m[3])
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	val.Standardize()
	std := val.Pack()
	if err := json.Unmarshal(std, v); err != nil {
		return positioned(path, std, err)
	}
	if getenv == nil || !bytes.ContainsRune(std, '$') {
		return nil
	}
	expanded, err := expandJSON(std, getenv)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := json.Unmarshal(expanded, v); err != nil {
		return fmt.Errorf("%s: after expanding variables: %w", path, err)
	}
	return nil
}

// positioned names the line and column of a JSON decoding error.
func positioned(path string, data []byte, err error) error {
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return fmt.Errorf("%s: %w", path, err)
	}
	if typ != nil {
		off = int64(valueStart(data, int(off)))
	}
	line, col := lineCol(data, int(off))
	return fmt.Errorf("%s:%d:%d: %w", path, line, col, err)
}

// valueStart is where the value that ends at end starts, for a string,
// number or literal (a type error's offset is the end of the value);
// other values keep end.
func valueStart(data []byte, end int) int {
	if end == 0 {
		return end
	}
	if data[end-1] == '"' {
		for i := end - 2; i >= 0; i-- {
			if data[i] == '"' && (i == 0 || data[i-1] != '\\') {
				return i
			}
		}
		return end
	}
	i := end
	for i > 0 && !strings.ContainsRune(",:[{ \t\r\n", rune(data[i-1])) {
		i--
	}
	return i
}

// lineCol is the 1-based line and column of byte offset n in data.
func lineCol(data []byte, n int) (int, int) {
	line := 1 + bytes.Count(data[:n], []byte("\n"))
	return line, n - bytes.LastIndexByte(data[:n], '\n')
}

// expandJSON rewrites every string value of the JSON document data with
// its variables expanded.
func expandJSON(data []byte, getenv func(string) string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	return json.Marshal(expandValue(doc, getenv))
}

// expandValue expands the strings of a decoded JSON value, keys excepted.
func expandValue(v any, getenv func(string) string) any {
	switch v := v.(type) {
	case string:
		return ExpandVars(v, getenv)
	case map[string]any:
		for k, e := range v {
			v[k] = expandValue(e, getenv)
		}
	case []any:
		for i, e := range v {
			v[i] = expandValue(e, getenv)
		}
	}
	return v
}

// varRef matches ${NAME}, ${NAME:-default} and $NAME; compiled on first
// use, like hujsonPos.
var varRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)`)
})

// ExpandVars replaces ${VAR} and $VAR in s with the variables' values
// from getenv, and ${VAR:-default} with the value or else default (as in
// Claude Code's .mcp.json); a variable that is not set (empty) and has
// no default stays as written.
func ExpandVars(s string, getenv func(string) string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	re := varRef()
	return re.ReplaceAllStringFunc(s, func(ref string) string {
		m := re.FindStringSubmatch(ref)
		name, def := m[1]+m[3], m[2]
		if v := getenv(name); v != "" {
			return v
		}
		if def != "" {
			return def[2:]
		}
		return ref
	})
}
