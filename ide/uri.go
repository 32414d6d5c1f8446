package ide

import (
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"strings"
)

// PathFromURI returns the file path a file:// URI names. A host other than
// localhost makes a UNC path (//host/share/...); a Windows drive path
// (/C:/x) loses its leading slash. Other schemes fail with ErrNotFileURI.
func PathFromURI(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("%q: %w: %w", uri, ErrNotFileURI, err)
	}
	if !strings.EqualFold(u.Scheme, "file") || u.Opaque != "" || u.Path == "" {
		return "", fmt.Errorf("%q: %w", uri, ErrNotFileURI)
	}
	p := u.Path
	switch {
	case u.Host != "" && !strings.EqualFold(u.Host, "localhost"):
		p = "//" + u.Host + p
	case isDrivePath(p[1:]):
		p = p[1:]
	}
	return filepath.FromSlash(p), nil
}

// URIFromPath returns the file:// URI of an absolute path, cleaned and
// percent-encoded. Windows drive (C:\x) and UNC (\\host\share) paths are
// recognised on every OS, since the editor may run elsewhere than the agent.
func URIFromPath(p string) string {
	if isDrivePath(p) || strings.HasPrefix(p, `\\`) {
		p = strings.ReplaceAll(p, `\`, "/")
	}
	p = filepath.ToSlash(p)
	u := url.URL{Scheme: "file"}
	if strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///") {
		host, rest, _ := strings.Cut(p[2:], "/")
		u.Host, u.Path = host, path.Clean("/"+rest)
	} else {
		u.Path = path.Clean("/" + p)
	}
	return u.String()
}

// isAbsPath reports whether p is absolute in POSIX, Windows drive or UNC form.
func isAbsPath(p string) bool {
	return strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\\`) || isDrivePath(p)
}

// isDrivePath reports whether p starts with a Windows drive ("C:/", "c:\").
func isDrivePath(p string) bool {
	if len(p) < 3 || p[1] != ':' || (p[2] != '/' && p[2] != '\\') {
		return false
	}
	c := p[0] | 0x20
	return c >= 'a' && c <= 'z'
}

// canonicalURI rewrites a file:// URI in the form URIFromPath gives, so the
// same file always has the same URI. ok is false for any other URI, and for
// odd ones whose canonical form does not canonicalise to itself (a blank
// host, say), so that canonicalising twice changes nothing.
func canonicalURI(uri string) (string, bool) {
	p, err := PathFromURI(uri)
	if err != nil {
		return "", false
	}
	c := URIFromPath(p)
	if back, err := PathFromURI(c); err != nil || URIFromPath(back) != c {
		return "", false
	}
	return c, true
}

// FolderFromPath returns the workspace folder of an absolute path, named
// after its last element. The companion spec gives folders as paths (the
// discovery file's workspacePath), not URIs.
func FolderFromPath(p string) WorkspaceFolder {
	uri := URIFromPath(p)
	name := filepath.Base(pathOf(uri))
	return WorkspaceFolder{URI: uri, Name: name}
}
