package sandbox

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestSeatbeltProfile compares the profile and its parameters with
// testdata/seatbelt-*.golden for both modes, with and without network.
func TestSeatbeltProfile(t *testing.T) {
	roots := []string{"/Users/me/project", "/Users/me/other \"dir\""}
	for _, tc := range []struct {
		mode    Mode
		network bool
	}{{ReadOnly, false}, {ReadOnly, true}, {WorkspaceWrite, false}, {WorkspaceWrite, true}} {
		name := string(tc.mode) + map[bool]string{true: "-network", false: ""}[tc.network]
		t.Run(name, func(t *testing.T) {
			profile, params := seatbeltProfile(tc.mode, tc.network, roots, "/private/var/folders/x/T/companion-sandbox-1")
			got := profile + "\n;; parameters\n;; " + strings.Join(params, "\n;; ") + "\n"
			path := filepath.Join("testdata", "seatbelt-"+name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("profile differs from %s:\n%s", path, got)
			}
			if strings.Contains(profile, "/Users") {
				t.Error("a path is inside the profile text, not a parameter")
			}
		})
	}
}

// TestSeatbeltCommand puts the profile, its parameters and TMPDIR before
// the command.
func TestSeatbeltCommand(t *testing.T) {
	got := seatbeltCommand("/usr/bin/sandbox-exec", ReadOnly, false, nil, "/t", []string{"sh", "-c", "x"})
	want := "/usr/bin/sandbox-exec -p PROFILE -D TMP=/t /usr/bin/env TMPDIR=/t sh -c x"
	got[2] = "PROFILE"
	if strings.Join(got, " ") != want {
		t.Errorf("seatbeltCommand = %q, want %q", got, want)
	}
}
