package secrets

import (
	"path"
	"strings"
)

// EnvFilter adjusts which variables ShellEnv keeps. Names are matched
// as globs (path.Match syntax), ignoring case.
type EnvFilter struct {
	// Include re-admits names the defaults would drop; it wins over
	// everything else.
	Include []string
	// Exclude drops more names.
	Exclude []string
	// Values drops any variable holding one of these values (the keys
	// companion was configured with), whatever its name.
	Values []string
}

// credentialNames are the names dropped by default: the shapes of
// credentials and the keys companion itself reads.
func credentialNames() []string {
	return []string{
		"*_API_KEY", "API_KEY", "*_APIKEY", "*_TOKEN", "*_SECRET", "*_SECRET_*", "*PASSWORD*",
		"*_CREDENTIALS", "*_PRIVATE_KEY",
		"GOOGLE_APPLICATION_CREDENTIALS", "GEMINI_API_KEY", "GOOGLE_API_KEY", "OPENAI_API_KEY",
	}
}

// ShellEnv returns environ (NAME=value entries, as os.Environ gives them)
// without the variables a shell command should not see: names that look
// like credentials, f.Exclude and variables holding one of f.Values,
// except the names f.Include re-admits.
func ShellEnv(environ []string, f EnvFilter) []string {
	m := envMatcher{include: upper(f.Include), exclude: append(upper(f.Exclude), credentialNames()...), values: f.Values}
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if m.keep(strings.ToUpper(name), value) {
			out = append(out, kv)
		}
	}
	return out
}

// envMatcher is an EnvFilter with its globs upper-cased once, plus the
// default credential names.
type envMatcher struct {
	include, exclude, values []string
}

// upper returns globs in upper case, so that matching ignores case.
func upper(globs []string) []string {
	out := make([]string, len(globs))
	for i, g := range globs {
		out[i] = strings.ToUpper(g)
	}
	return out
}

// keep reports whether the variable name=value passes the filter; name is
// upper case.
func (m envMatcher) keep(name, value string) bool {
	switch {
	case matchAny(name, m.include):
		return true
	case matchAny(name, m.exclude):
		return false
	}
	for _, v := range m.values {
		if v != "" && v == value {
			return false
		}
	}
	return true
}

// matchAny reports whether name matches one of the globs (both upper
// case). A malformed glob matches nothing.
func matchAny(name string, globs []string) bool {
	for _, g := range globs {
		if ok, err := path.Match(g, name); err == nil && ok {
			return true
		}
	}
	return false
}
