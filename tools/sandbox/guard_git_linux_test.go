package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// gitHoles plants, from inside a command, two ways to make the host's git
// run code: a .git/commondir pointing at a copy of .git whose config sets
// core.fsmonitor, and a nested repository with such a config registered as
// a submodule by writing .git/index (git status looks into submodules).
// Each fsmonitor touches a marker at the top of the repository.
const gitHoles = `mkdir -p src/evil && cp -r .git/. src/evil/ &&
printf '[core]\n\tfsmonitor = touch %s\n' "$PWD/PWNED_COMMONDIR" >> src/evil/config;
echo ../src/evil > .git/commondir;
t=$(mktemp -d); git init -q src/sub && git -C src/sub -c user.email=a@b -c user.name=a commit -q --allow-empty -m x &&
printf '[core]\n\tfsmonitor = touch %s\n' "$PWD/PWNED_SUBMODULE" >> src/sub/.git/config;
GIT_INDEX_FILE=$t/i git read-tree HEAD && GIT_INDEX_FILE=$t/i git update-index --add --cacheinfo 160000,$(git -C src/sub rev-parse HEAD),src/sub &&
cat $t/i > .git/index;
git status --porcelain > src/status.out`

// gitRepo makes base/name a repository with one commit, owned by u.
func gitRepo(t *testing.T, base, name string, u testUser) string {
	t.Helper()
	dir := userTree(t, base, name, u, "src/")
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "--allow-empty", "-m", "init"}} {
		cmd := gitAs(u, base, dir, args...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// gitAs is git run on the host as u in dir, with no settings of its own.
func gitAs(u testUser, home, dir string, args ...string) *exec.Cmd {
	cmd := asUser(exec.Command("git", args...), u)
	cmd.Env = append(cmd.Env, "HOME="+home, "GIT_CONFIG_NOSYSTEM=1")
	cmd.Dir = dir
	return cmd
}

// TestGitHoles runs gitHoles under each Linux backend, as root and as an
// ordinary user, then git status on the host: no marker may appear. The
// same command with the sandbox off must plant both, or the test proves
// nothing. git status inside the sandbox still works.
func TestGitHoles(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	exe, shared := sharedHelper(t)
	for _, u := range testUsers() {
		for _, b := range []Backend{None, Bwrap, Landlock} {
			t.Run(u.name+"/"+string(b), func(t *testing.T) {
				s := &Sandbox{Mode: WorkspaceWrite, Force: b, Helper: exe}
				if b == None {
					s.Mode = Off
				} else if err := s.Available(); err != nil {
					t.Skipf("%s cannot run here: %v", b, err)
				}
				base := userTree(t, shared, u.name+"-"+string(b), u)
				repo := gitRepo(t, base, "repo", u)
				argv := []string{"sh", "-c", gitHoles}
				if s.Mode.Sandboxed() {
					var err error
					if argv, err = s.Wrap([]string{repo}, argv); err != nil {
						t.Fatal(err)
					}
				}
				cmd := asUser(exec.Command(argv[0], argv[1:]...), u)
				cmd.Dir = repo
				out, _ := cmd.CombinedOutput()
				if _, err := os.Stat(filepath.Join(repo, "src", "status.out")); err != nil {
					t.Errorf("git status failed inside the sandbox:\n%s", out)
				}
				if st, err := gitAs(u, base, repo, "status").CombinedOutput(); err != nil {
					t.Logf("host git status: %v\n%s", err, st)
				}
				for _, m := range []string{"PWNED_COMMONDIR", "PWNED_SUBMODULE"} {
					_, err := os.Stat(filepath.Join(repo, m))
					if planted := err == nil; planted != !s.Mode.Sandboxed() {
						t.Errorf("%s planted %v, want %v; the command said:\n%s", m, planted, !s.Mode.Sandboxed(), out)
					}
				}
			})
		}
	}
}
