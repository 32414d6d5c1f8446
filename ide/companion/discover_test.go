package companion

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// machine is a faked machine for Discover: a temp dir with port files, a
// proc tree, the files "owned" by other users, an environment.
type machine struct {
	t       *testing.T
	tmp     string
	proc    string
	foreign map[string]bool
	env     map[string]string
}

// The fake process tree: the agent (50) runs in a shell (40) in an editor
// (30, with its helper 20), under init (1). 300 and 400 are other editors.
const (
	agentPID  = 50
	shellPID  = 40
	editorPID = 30
	helperPID = 20
)

func newMachine(t *testing.T) *machine {
	t.Helper()
	m := &machine{t: t, tmp: t.TempDir(), proc: t.TempDir(), foreign: map[string]bool{}, env: map[string]string{}}
	for pid, ppid := range map[int]int{agentPID: shellPID, shellPID: editorPID, editorPID: helperPID, helperPID: 1, 1: 0, 300: 1, 400: 1} {
		m.process(pid, ppid)
	}
	return m
}

// process adds a live process with its parent to the fake /proc; the
// command name holds a space and a parenthesis, as real ones may.
func (m *machine) process(pid, ppid int) {
	dir := filepath.Join(m.proc, strconv.Itoa(pid))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		m.t.Fatal(err)
	}
	stat := strconv.Itoa(pid) + " (code (x) helper) S " + strconv.Itoa(ppid) + " 1 1 0 -1\n"
	if err := os.WriteFile(filepath.Join(dir, "stat"), []byte(stat), 0o644); err != nil {
		m.t.Fatal(err)
	}
}

// dir makes a directory under the temp dir and returns its real path.
func (m *machine) dir(rel string) string {
	d := filepath.Join(m.tmp, "ws", rel)
	if err := os.MkdirAll(d, 0o755); err != nil {
		m.t.Fatal(err)
	}
	return realPath(d)
}

// portFile writes a port file by name with the given workspace folders.
func (m *machine) portFile(name string, port int, ws ...string) string {
	dir := filepath.Join(m.tmp, "gemini", "ide")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		m.t.Fatal(err)
	}
	data, _ := json.Marshal(map[string]any{
		"port":          port,
		"workspacePath": strings.Join(ws, string(os.PathListSeparator)),
		"authToken":     "tok-" + strconv.Itoa(port),
	})
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		m.t.Fatal(err)
	}
	return path
}

func (m *machine) options(cwd string) DiscoverOptions {
	return DiscoverOptions{
		Getenv:      func(k string) string { return m.env[k] },
		TempDir:     m.tmp,
		Cwd:         cwd,
		PID:         agentPID,
		ProcRoot:    m.proc,
		OwnedByUser: func(fi fs.FileInfo) bool { return !m.foreign[fi.Name()] },
	}
}

func TestDiscover(t *testing.T) {
	tests := []struct {
		name string
		// setup writes the files and environment; it returns the cwd.
		setup    func(m *machine) string
		wantPort int
		wantErr  error
	}{{
		name: "two windows: the cwd decides",
		setup: func(m *machine) string {
			a, b := m.dir("a"), m.dir("b")
			m.portFile("gemini-ide-server-30-1001.json", 1001, a)
			m.portFile("gemini-ide-server-30-1002.json", 1002, m.dir("c"), b)
			return m.dir("b/sub")
		},
		wantPort: 1002,
	}, {
		name: "tie: the env port decides",
		setup: func(m *machine) string {
			ws := m.dir("a")
			m.portFile("gemini-ide-server-30-1001.json", 1001, ws)
			m.portFile("gemini-ide-server-30-1002.json", 1002, ws)
			m.portFile("gemini-ide-server-30-1003.json", 1003, ws)
			m.env[EnvPort] = "1002"
			return ws
		},
		wantPort: 1002,
	}, {
		name: "the editor the agent runs under beats another editor and the env port",
		setup: func(m *machine) string {
			ws := m.dir("a")
			m.portFile("gemini-ide-server-300-2001.json", 2001, ws)
			m.portFile("gemini-ide-server-30-1001.json", 1001, ws)
			m.portFile("gemini-ide-server-400-4001.json", 4001, ws)
			m.env[EnvPort] = "2001"
			return ws
		},
		wantPort: 1001,
	}, {
		name: "the nearest ancestor wins",
		setup: func(m *machine) string {
			ws := m.dir("a")
			m.portFile("gemini-ide-server-20-1020.json", 1020, ws)
			m.portFile("gemini-ide-server-30-1030.json", 1030, ws)
			return ws
		},
		wantPort: 1030,
	}, {
		name: "GEMINI_CLI_IDE_PID overrides the process tree",
		setup: func(m *machine) string {
			ws := m.dir("a")
			m.portFile("gemini-ide-server-30-1001.json", 1001, ws)
			m.portFile("gemini-ide-server-400-4001.json", 4001, ws)
			m.env[EnvPID] = "400"
			return ws
		},
		wantPort: 4001,
	}, {
		name: "another user's file is ignored",
		setup: func(m *machine) string {
			ws := m.dir("a")
			m.portFile("gemini-ide-server-30-1001.json", 1001, ws)
			m.portFile("gemini-ide-server-300-2001.json", 2001, ws)
			m.foreign["gemini-ide-server-30-1001.json"] = true
			return ws
		},
		wantPort: 2001,
	}, {
		name: "only another user's file: not found",
		setup: func(m *machine) string {
			ws := m.dir("a")
			m.portFile("gemini-ide-server-30-1001.json", 1001, ws)
			m.foreign["gemini-ide-server-30-1001.json"] = true
			return ws
		},
		wantErr: ErrNotFound,
	}, {
		name: "a dead editor's file is stale",
		setup: func(m *machine) string {
			ws := m.dir("a")
			m.portFile("gemini-ide-server-999-9001.json", 9001, ws)
			m.portFile("gemini-ide-server-300-2001.json", 2001, ws)
			m.env[EnvPort] = "9001"
			return ws
		},
		wantPort: 2001,
	}, {
		name: "legacy file name",
		setup: func(m *machine) string {
			ws := m.dir("a")
			m.portFile("gemini-ide-server-30.json", 1001, ws)
			return ws
		},
		wantPort: 1001,
	}, {
		name: "new-style name beats legacy of the same editor",
		setup: func(m *machine) string {
			ws := m.dir("a")
			m.portFile("gemini-ide-server-30.json", 1000, ws)
			m.portFile("gemini-ide-server-30-1001.json", 1001, ws)
			return ws
		},
		wantPort: 1001,
	}, {
		name: "malformed and foreign-named files are skipped",
		setup: func(m *machine) string {
			ws := m.dir("a")
			bad := m.portFile("gemini-ide-server-30-1002.json", 1, ws)
			if err := os.WriteFile(bad, []byte("{not json"), 0o600); err != nil {
				m.t.Fatal(err)
			}
			m.portFile("gemini-ide-server-30-x.json", 1003, ws)
			m.portFile("gemini-ide-server--30-1004.json", 1004, ws)
			m.portFile("other-30-1005.json", 1005, ws)
			m.portFile("gemini-ide-server-30-1001.json", 1001, ws)
			return ws
		},
		wantPort: 1001,
	}, {
		name: "the cwd outside every workspace: not found",
		setup: func(m *machine) string {
			m.portFile("gemini-ide-server-30-1001.json", 1001, m.dir("a"))
			return m.dir("ab")
		},
		wantErr: ErrNotFound,
	}, {
		name: "environment only",
		setup: func(m *machine) string {
			ws := m.dir("a")
			m.env[EnvPort] = "5005"
			m.env[EnvAuthToken] = "env-token"
			m.env[EnvWorkspacePath] = ws
			return m.dir("a/deep")
		},
		wantPort: 5005,
	}, {
		name: "environment only, the cwd outside its workspace",
		setup: func(m *machine) string {
			m.env[EnvPort] = "5005"
			m.env[EnvWorkspacePath] = m.dir("a")
			return m.dir("b")
		},
		wantErr: ErrNotFound,
	}, {
		name:    "nothing at all",
		setup:   func(m *machine) string { return m.dir("a") },
		wantErr: ErrNotFound,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMachine(t)
			cwd := tt.setup(m)
			ep, err := Discover(m.options(cwd))
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Discover() = %+v, %v; want error %v", ep, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Discover() error = %v", err)
			}
			if ep.Port != tt.wantPort {
				t.Errorf("Discover() port = %d (file %s), want %d", ep.Port, ep.File, tt.wantPort)
			}
		})
	}
}

func TestDiscoverEndpointFields(t *testing.T) {
	m := newMachine(t)
	ws := m.dir("a")
	file := m.portFile("gemini-ide-server-30-1001.json", 1001, ws, m.dir("b"))
	ep, err := Discover(m.options(ws))
	if err != nil {
		t.Fatal(err)
	}
	if ep.File != file || ep.PID != editorPID || ep.AuthToken != "tok-1001" || len(ep.WorkspacePaths) != 2 {
		t.Errorf("endpoint = %+v", ep)
	}
	if got, want := ep.URL(), "http://127.0.0.1:1001/mcp"; got != want {
		t.Errorf("URL() = %q, want %q", got, want)
	}

	// A file without a token takes the environment's.
	m.env[EnvAuthToken] = "env-token"
	data, _ := json.Marshal(map[string]any{"port": "1001", "workspacePath": ws})
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	ep, err = Discover(m.options(ws))
	if err != nil {
		t.Fatal(err)
	}
	if ep.AuthToken != "env-token" || ep.Port != 1001 {
		t.Errorf("endpoint without token = %+v, want the env token and port 1001 (string port)", ep)
	}
}

func TestDiscoverIgnoresSymlinks(t *testing.T) {
	m := newMachine(t)
	ws := m.dir("a")
	target := m.portFile("target.json", 1001, ws)
	link := filepath.Join(filepath.Dir(target), "gemini-ide-server-30-1001.json")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	if ep, err := Discover(m.options(ws)); !errors.Is(err, ErrNotFound) {
		t.Errorf("Discover() through a symlink = %+v, %v; want ErrNotFound", ep, err)
	}
}

func TestDiscoverOnce(t *testing.T) {
	m := newMachine(t)
	ws := m.dir("a")
	file := m.portFile("gemini-ide-server-30-1001.json", 1001, ws)
	find := DiscoverOnce(m.options(ws))
	first, err := find()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	second, err := find()
	if err != nil || second != first {
		t.Errorf("second call = %p, %v; want the first answer %p again", second, err, first)
	}
}

func TestAncestors(t *testing.T) {
	m := newMachine(t)
	got := ancestors(m.proc, agentPID)
	want := []int{shellPID, editorPID, helperPID, 1}
	if !slices.Equal(got, want) {
		t.Errorf("ancestors() = %v, want %v", got, want)
	}
	if got := ancestors("", agentPID); got != nil {
		t.Errorf("ancestors without /proc = %v, want none", got)
	}
	if got := ancestors(m.proc, 12345); got != nil {
		t.Errorf("ancestors of an unknown process = %v, want none", got)
	}
}

func TestRealMachine(t *testing.T) {
	if !processAlive("", os.Getpid()) {
		t.Error("processAlive(own pid) by signal = false")
	}
	if processAlive("", 0) {
		t.Error("processAlive(0) = true")
	}
	f := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(f)
	if err != nil {
		t.Fatal(err)
	}
	if !ownedByCurrentUser(fi) {
		t.Error("ownedByCurrentUser(own file) = false")
	}
}
