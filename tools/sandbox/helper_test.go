package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestHelperArgsRoundTrip(t *testing.T) {
	for _, sp := range []helperSpec{{Mode: WorkspaceWrite, Network: false, Roots: []string{"/w", "/v x"}},
		{Mode: ReadOnly, Network: true, Roots: []string{}}} {
		args := helperArgs("/bin/companion", sp, []string{"sh", "-c", "echo -- x"})
		if args[0] != "/bin/companion" || args[1] != HelperCommand {
			t.Fatalf("helperArgs = %q", args)
		}
		got, argv, err := parseHelperArgs(args[2:])
		if err != nil || got.Mode != sp.Mode || got.Network != sp.Network || !slices.Equal(got.Roots, sp.Roots) ||
			!slices.Equal(argv, []string{"sh", "-c", "echo -- x"}) {
			t.Errorf("parseHelperArgs(%q) = %+v %q %v, want %+v", args[2:], got, argv, err, sp)
		}
	}
	for _, bad := range [][]string{nil, {"read-only", "net=off"}, {"read-only", "net=off", "--"}, {"off", "net=off", "--", "x"},
		{"read-only", "net=maybe", "--", "x"}, {"workspace-write", "net=on", "rel", "--", "x"}} {
		if _, _, err := parseHelperArgs(bad); err == nil {
			t.Errorf("parseHelperArgs(%q) took it", bad)
		}
	}
}

// TestPlanWrites grants every root entry by entry, without the guarded
// entries (whether they exist or not: a root lacking them is not granted
// whole either, so they cannot be created), without symbolic links, and
// nothing in read-only.
func TestPlanWrites(t *testing.T) {
	base := t.TempDir()
	plain, repo := filepath.Join(base, "plain"), filepath.Join(base, "ws")
	for _, d := range []string{"ws/.git/hooks", "ws/.git/objects", "ws/.companion", "ws/src", "plain/lib"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".git/config", ".git/HEAD", "README"} {
		if err := os.WriteFile(filepath.Join(repo, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(t.TempDir(), filepath.Join(repo, "out")); err != nil {
		t.Fatal(err)
	}
	got := planWrites(WorkspaceWrite, []string{plain, repo}, osLook)
	want := []string{filepath.Join(plain, "lib"), filepath.Join(repo, "README"), filepath.Join(repo, "src"),
		filepath.Join(repo, ".git", "HEAD"), filepath.Join(repo, ".git", "objects")}
	if !slices.Equal(got, want) {
		t.Errorf("planWrites =\n%q\nwant\n%q", got, want)
	}
	if got := planWrites(ReadOnly, []string{plain}, osLook); len(got) != 0 {
		t.Errorf("read-only planWrites = %q, want nothing", got)
	}
}
