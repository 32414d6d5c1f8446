package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": Off, "off": Off, "read-only": ReadOnly, " workspace-write ": WorkspaceWrite} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseMode("danger"); !errors.Is(err, ErrUnknownMode) {
		t.Errorf("ParseMode(danger) error = %v, want ErrUnknownMode", err)
	}
}

// tree makes the entries under a fresh folder ("name/" a folder, "name@"
// a symbolic link out of it, else an empty file) and returns the folder.
func tree(t *testing.T, entries ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, e := range entries {
		p := filepath.Join(dir, strings.TrimRight(e, "/@"))
		var err error
		switch {
		case strings.HasSuffix(e, "/"):
			err = os.MkdirAll(p, 0o755)
		case strings.HasSuffix(e, "@"):
			err = os.Symlink(t.TempDir(), p)
		default:
			err = os.WriteFile(p, nil, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestArgs: a root whose guarded entries all exist stays writable with
// each pinned by a mount; a missing or linked one makes the top level of
// its folder read-only and binds the other entries writable one by one.
// .git/commondir is missing in every ordinary repository, so the top of
// .git is always read-only.
func TestArgs(t *testing.T) {
	base := "--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp"
	tail := "--unshare-pid --die-with-parent --new-session --cap-drop ALL -- sh -c x"
	repo := tree(t, ".git/hooks/", ".git/config", ".git/index", ".git/modules/", ".git/objects/", ".companion/", "src/")
	gitFile := tree(t, ".git", ".companion/", "README")
	fresh := tree(t, "src/", "README", "out@")
	noConfig := tree(t, ".git/hooks/", ".git/HEAD", ".companion/")
	linked := tree(t, ".git/hooks/", ".git/config", ".companion@", "src/")
	tests := []struct {
		name    string
		mode    Mode
		network bool
		roots   []string
		want    string
	}{
		{"read-only binds roots read-only", ReadOnly, false, []string{"/w", "/v"}, base + " --ro-bind /w /w --ro-bind /v /v --unshare-net " + tail},
		{"read-only with network", ReadOnly, true, []string{"/w"}, base + " --ro-bind /w /w " + tail},
		{"repository: .git's top level and guarded entries read-only, the rest writable", WorkspaceWrite, false, []string{repo},
			base + " --bind $R $R --ro-bind $R/.git $R/.git --bind $R/.git/objects $R/.git/objects" +
				" --ro-bind $R/.git/hooks $R/.git/hooks --ro-bind $R/.git/config $R/.git/config" +
				" --ro-bind $R/.git/index $R/.git/index --ro-bind $R/.git/modules $R/.git/modules" +
				" --ro-bind $R/.companion $R/.companion --unshare-net " + tail},
		{".git as a file is pinned read-only", WorkspaceWrite, true, []string{gitFile},
			base + " --bind $R $R --ro-bind $R/.git $R/.git --ro-bind $R/.companion $R/.companion " + tail},
		{"no .git: top level read-only, entries writable, links skipped", WorkspaceWrite, true, []string{fresh},
			base + " --ro-bind $R $R --bind $R/README $R/README --bind $R/src $R/src " + tail},
		{"no .git/config: .git's top level read-only", WorkspaceWrite, true, []string{noConfig},
			base + " --bind $R $R --ro-bind $R/.git $R/.git --bind $R/.git/HEAD $R/.git/HEAD --ro-bind $R/.git/hooks $R/.git/hooks" +
				" --ro-bind $R/.companion $R/.companion " + tail},
		{".companion a link: top level read-only", WorkspaceWrite, true, []string{linked},
			base + " --ro-bind $R $R --bind $R/src $R/src --ro-bind $R/.git $R/.git --ro-bind $R/.git/hooks $R/.git/hooks" +
				" --ro-bind $R/.git/config $R/.git/config " + tail},
		{"workspace-write no roots", WorkspaceWrite, true, nil, base + " " + tail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Args(tt.mode, tt.network, tt.roots, osLook, []string{"sh", "-c", "x"})
			want := strings.Fields(tt.want)
			for i, w := range want {
				if len(tt.roots) > 0 {
					want[i] = strings.ReplaceAll(w, "$R", tt.roots[0])
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("Args =\n%q\nwant\n%q", got, want)
			}
		})
	}
}

func TestWrapOff(t *testing.T) {
	argv := []string{"sh", "-c", "x"}
	for _, s := range []*Sandbox{nil, {}, New(Off, false)} {
		got, err := s.Wrap([]string{"/w"}, argv)
		if err != nil || !slices.Equal(got, argv) {
			t.Errorf("Wrap off = %q, %v; want argv unchanged", got, err)
		}
	}
}

// TestWrapWithoutBackend: with bwrap forced and missing, a sandboxed mode
// refuses, naming bwrap; nothing runs unsandboxed.
func TestWrapWithoutBackend(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	s := &Sandbox{Mode: WorkspaceWrite, Force: Bwrap}
	if _, err := s.Wrap([]string{"/w"}, []string{"true"}); err == nil || !strings.Contains(err.Error(), "bwrap") {
		t.Errorf("Wrap without bwrap error = %v, want one naming bwrap", err)
	}
	if b := s.Backend(); b.Name != None || !strings.Contains(b.Why, "bwrap") {
		t.Errorf("Backend = %+v, want none saying why", b)
	}
	bad := &Sandbox{Mode: ReadOnly, Force: "chroot"}
	if err := bad.Available(); err == nil || !strings.Contains(err.Error(), BackendEnv) {
		t.Errorf("unknown forced backend: %v", err)
	}
}

func TestNote(t *testing.T) {
	// Notes are those of bwrap; the Landlock note is checked in
	// TestLandlockNote.
	if err := New(ReadOnly, false).Available(); err != nil {
		t.Skip(err)
	}
	tests := []struct {
		s      *Sandbox
		failed bool
		out    string
		want   string
	}{
		{New(WorkspaceWrite, false), true, "touch: cannot touch '/x': Read-only file system", "workspace-write sandbox: writes outside the session's folders and a private /tmp are blocked and network access is blocked."},
		{New(ReadOnly, true), true, "Read-only file system", "read-only sandbox: writes outside a private /tmp are blocked."},
		{New(ReadOnly, false), true, "curl: (7) Couldn't connect to server", "network access is blocked"},
		{New(ReadOnly, false), false, "Read-only file system", ""},
		{New(ReadOnly, false), true, "no such file", ""},
		{New(Off, false), true, "Read-only file system", ""},
	}
	for _, tt := range tests {
		got := tt.s.Note(tt.failed, tt.out)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("Note(%v, %q) = %q, want it to hold %q", tt.failed, tt.out, got, tt.want)
		}
	}
}

// TestSettingsMode: a settings value that does not parse is read-only,
// never off.
func TestSettingsMode(t *testing.T) {
	for in, want := range map[string]Mode{"": Off, "off": Off, "read-only": ReadOnly, "workspace-write": WorkspaceWrite, "everything": ReadOnly} {
		if got := SettingsMode(in); got != want {
			t.Errorf("SettingsMode(%q) = %q, want %q", in, got, want)
		}
	}
}
