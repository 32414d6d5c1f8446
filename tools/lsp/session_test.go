package lsp

import (
	"os"
	"path/filepath"
	"testing"

	"companion/tools"
)

// TestProjectServerNeedsTrust: a server from the project's settings is
// neither offered nor used while the workspace is untrusted; the user's
// is.
func TestProjectServerNeedsTrust(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.mark"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	roots, err := tools.NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name             string
		project, trusted bool
		want             bool
	}{
		{"project server, trusted", true, true, true},
		{"project server, untrusted", true, false, false},
		{"user server, untrusted", false, false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := Server{Name: "x", Command: "x", Path: "/bin/x", Extensions: []string{".x"}, RootMarkers: []string{"x.mark"}, Project: tt.project}
			s := NewPool(PoolOptions{}).Session(SessionOptions{Servers: []Server{srv}, Roots: roots,
				Trusted: func() bool { return tt.trusted }})
			defer s.Close()
			_, _, found := s.serverFor(filepath.Join(dir, "a.x"))
			if found != tt.want || s.Applies() != tt.want {
				t.Errorf("served %v, applies %v; want %v", found, s.Applies(), tt.want)
			}
		})
	}
}
