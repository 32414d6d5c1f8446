package ide

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestPathFromURI(t *testing.T) {
	t.Parallel()
	tests := []struct {
		uri, want string
		err       error
	}{
		{"file:///home/u/a.go", "/home/u/a.go", nil},
		{"file://localhost/home/u/a%20b.go", "/home/u/a b.go", nil},
		{"FILE:///x", "/x", nil},
		{"file:///c%3A/src/a.go", "c:/src/a.go", nil},
		{"file:///C:/src/a.go", "C:/src/a.go", nil},
		{"file://server/share/a.go", "//server/share/a.go", nil},
		{"untitled:Untitled-1", "", ErrNotFileURI},
		{"https://example.com/a.go", "", ErrNotFileURI},
		{"file:rel/a.go", "", ErrNotFileURI},
		{"file://", "", ErrNotFileURI},
		{"file:///%zz", "", ErrNotFileURI},
	}
	for _, tt := range tests {
		got, err := PathFromURI(tt.uri)
		if !errors.Is(err, tt.err) || got != filepath.FromSlash(tt.want) {
			t.Errorf("PathFromURI(%q) = %q, %v; want %q, %v", tt.uri, got, err, tt.want, tt.err)
		}
	}
}

func TestURIFromPath(t *testing.T) {
	t.Parallel()
	tests := []struct{ path, want string }{
		{"/home/u/a.go", "file:///home/u/a.go"},
		{"/home/u/../u/a b#?.go", "file:///home/u/a%20b%23%3F.go"},
		{`C:\src\a.go`, "file:///C:/src/a.go"},
		{`\\server\share\a.go`, "file://server/share/a.go"},
		{"/home/ü/ä.go", "file:///home/%C3%BC/%C3%A4.go"},
	}
	for _, tt := range tests {
		if got := URIFromPath(tt.path); got != tt.want {
			t.Errorf("URIFromPath(%q) = %q, want %q", tt.path, got, tt.want)
		}
		if _, err := PathFromURI(URIFromPath(tt.path)); err != nil {
			t.Errorf("PathFromURI(URIFromPath(%q)): %v", tt.path, err)
		}
	}
}

func TestFolderFromPath(t *testing.T) {
	t.Parallel()
	got := FolderFromPath("/home/u/my proj")
	want := WorkspaceFolder{URI: "file:///home/u/my%20proj", Name: "my proj"}
	if got != want {
		t.Errorf("FolderFromPath = %+v, want %+v", got, want)
	}
}
