package lspclient

import (
	"net/url"
	"path/filepath"
	"strings"
)

// FileURI is the file:// URI of an absolute path.
func FileURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") { // a Windows drive path
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// FilePath is the path of a file:// URI; ok is false for any other URI.
func FilePath(uri string) (path string, ok bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	p := u.Path
	if len(p) > 2 && p[0] == '/' && p[2] == ':' { // /C:/x on Windows
		p = p[1:]
	}
	return filepath.FromSlash(p), true
}
