package sandbox

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// testUser is who runs companion in a test: root, or an ordinary user.
type testUser struct {
	name string
	// cred is nil for the test's own user.
	cred *syscall.Credential
}

// testUsers are root and an ordinary user when the test runs as root (as
// CI does: the ordinary user is nobody's uid, no account needed), else the
// test's own user.
func testUsers() []testUser {
	if os.Geteuid() != 0 {
		return []testUser{{name: "user"}}
	}
	return []testUser{{name: "root"}, {name: "user", cred: &syscall.Credential{Uid: 65534, Gid: 65534}}}
}

// sharedHelper copies the test binary where an ordinary user can run it,
// under a folder outside /tmp that the user may traverse.
func sharedHelper(t *testing.T) (exe, base string) {
	t.Helper()
	base, err := os.MkdirTemp("/var/tmp", "companion-guard-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	exe = filepath.Join(base, "helper")
	b, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return exe, base
}

// asUser runs cmd as u.
func asUser(cmd *exec.Cmd, u testUser) *exec.Cmd {
	if u.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: u.cred}
	}
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	return cmd
}

// userTree makes the entries under base/name (as tree does) owned by u.
func userTree(t *testing.T, base, name string, u testUser, entries ...string) string {
	t.Helper()
	dir := filepath.Join(base, name)
	for _, e := range append([]string{""}, entries...) {
		p := filepath.Join(dir, e)
		var err error
		if e == "" || strings.HasSuffix(e, "/") {
			err = os.MkdirAll(p, 0o755)
		} else {
			err = os.WriteFile(p, []byte("[core]\n"), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if u.cred != nil {
		err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, int(u.cred.Uid), int(u.cred.Gid))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestLandlockGuards runs, as root and as an ordinary user, the attacks of
// issue 26 on Landlock through the helper, each checked by its side
// effect: a .git renamed and replaced by one with a planted config; a
// .git and a .companion created in a folder without them; companion's
// environment read through /proc.
func TestLandlockGuards(t *testing.T) {
	exe, shared := sharedHelper(t)
	plant := `printf '[core]\n\tfsmonitor = touch PWNED\n' >> .git/config`
	for _, u := range testUsers() {
		t.Run(u.name, func(t *testing.T) {
			s := &Sandbox{Mode: WorkspaceWrite, Force: Landlock, Helper: exe}
			if err := s.Available(); err != nil {
				t.Skipf("Landlock cannot run here: %v", err)
			}
			base := userTree(t, shared, u.name, u)
			repo := userTree(t, base, "repo", u, ".git/hooks/", ".git/objects/", ".git/config", ".companion/", "src/")
			fresh := userTree(t, base, "fresh", u, "src/")
			run := func(root, script string) string {
				argv, err := s.Wrap([]string{root}, []string{"sh", "-c", script})
				if err != nil {
					t.Fatal(err)
				}
				cmd := asUser(exec.Command(argv[0], argv[1:]...), u)
				cmd.Dir = root
				out, _ := cmd.CombinedOutput()
				return string(out)
			}
			run(repo, "mv .git .git-old && mkdir .git && cp -r .git-old/. .git/ && "+plant+"; touch src/ok")
			run(fresh, "mkdir .companion; echo '{}' > .companion/settings.json; git init -q . || mkdir -p .git; "+plant+"; touch src/ok")
			for p, want := range map[string]bool{"repo/.git-old": false, "repo/src/ok": true, "fresh/.companion": false,
				"fresh/.git": false, "fresh/src/ok": true} {
				if _, err := os.Lstat(filepath.Join(base, p)); (err == nil) != want {
					t.Errorf("%s exists %v, want %v", p, err == nil, want)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(repo, ".git", "config")); string(b) != "[core]\n" {
				t.Errorf("repo/.git/config is %q: planted", b)
			}
			holder := asUser(exec.Command(exe), u)
			holder.Env = append(holder.Env, holderEnv+"=1", "SECRET="+holderSecret)
			stdin, err := holder.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := holder.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := holder.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { stdin.Close(); _ = holder.Wait() }()
			if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "ready\n" {
				t.Fatalf("the holder did not start: %q", line)
			}
			pid := strconv.Itoa(holder.Process.Pid)
			out := run(repo, "cat /proc/"+pid+"/environ; tr '\\0' '\\n' < /proc/"+pid+"/environ; grep -a SECRET /proc/"+pid+"/environ")
			if strings.Contains(out, holderSecret) {
				t.Errorf("a sandboxed command read the holder's secret through /proc:\n%s", out)
			}
			// Without the sandbox only root reads it (docs/sandbox.md): an
			// ordinary user's command meets a non-dumpable process.
			if u.name == "user" {
				plain, _ := asUser(exec.Command("cat", "/proc/"+pid+"/environ"), u).CombinedOutput()
				if strings.Contains(string(plain), holderSecret) {
					t.Errorf("an ordinary user's unsandboxed command read the secret of a non-dumpable process")
				}
			}
		})
	}
}

// TestBwrapGuards runs the attacks of issue 26 on bubblewrap, as root and
// as an ordinary user: in a repository without .companion the top level
// stays writable, yet .git can be neither renamed nor replaced and
// .companion (made empty beforehand) not written; in a folder without
// .git neither can be created.
func TestBwrapGuards(t *testing.T) {
	_, shared := sharedHelper(t)
	plant := `printf '[core]\n\tfsmonitor = touch PWNED\n' >> .git/config`
	for _, u := range testUsers() {
		t.Run(u.name, func(t *testing.T) {
			s := &Sandbox{Mode: WorkspaceWrite, Force: Bwrap}
			if err := s.Available(); err != nil {
				t.Skipf("bubblewrap cannot run here: %v", err)
			}
			base := userTree(t, shared, u.name, u)
			repo := userTree(t, base, "repo", u, ".git/objects/", ".git/config", "src/")
			fresh := userTree(t, base, "fresh", u, "src/")
			run := func(root, script string) {
				argv, err := s.Wrap([]string{root}, []string{"sh", "-c", script})
				if err != nil {
					t.Fatal(err)
				}
				cmd := asUser(exec.Command(argv[0], argv[1:]...), u)
				cmd.Dir = root
				if out, err := cmd.CombinedOutput(); err != nil && strings.Contains(string(out), "bwrap:") {
					t.Skipf("bubblewrap cannot run as %s here: %s", u.name, out)
				}
			}
			// With capabilities, root could undo the mounts or remount
			// them writable.
			run(repo, "umount .git/config .companion 2>/dev/null; mount -o remount,rw,bind / 2>/dev/null; touch ../outside-mark; "+
				"touch top; mv .git .git-old; rm -rf .git; mkdir -p .companion; echo '{}' > .companion/settings.json; mkdir -p .git/hooks; echo x > .git/hooks/pre-commit; "+plant)
			run(fresh, "mkdir .companion; echo '{}' > .companion/settings.json; git init -q . || mkdir -p .git; "+plant+"; touch src/ok top")
			for p, want := range map[string]bool{"repo/top": true, "repo/.git-old": false, "repo/.companion": true, "repo/.companion/settings.json": false,
				"repo/.git/hooks/pre-commit": false, "fresh/.companion": false, "fresh/.git": false, "fresh/src/ok": true, "fresh/top": false, "outside-mark": false} {
				if _, err := os.Lstat(filepath.Join(base, p)); (err == nil) != want {
					t.Errorf("%s exists %v, want %v", p, err == nil, want)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(repo, ".git", "config")); string(b) != "[core]\n" {
				t.Errorf("repo/.git/config is %q: planted", b)
			}
		})
	}
}
