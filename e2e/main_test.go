package e2e

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"companion/internal/cli"
	"companion/internal/testkit/acptest"
	"companion/tools/procgroup"
)

// built is the companion binary of this test run, built with -race by the
// first test that runs it (companionBin), so a run of in-process tests
// alone builds nothing; buildDir holds it.
var (
	built struct {
		once sync.Once
		path string
		err  error
	}
	buildDir string
)

// companionBin returns the companion binary, building it on first use;
// COMPANION_E2E_BIN names a prebuilt one instead.
func companionBin(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		if p := os.Getenv("COMPANION_E2E_BIN"); p != "" {
			built.path = p
			return
		}
		built.path = filepath.Join(buildDir, "companion")
		out, err := exec.Command("go", "build", "-race", "-o", built.path, "companion/cmd/companion").CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("building companion: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

func TestMain(m *testing.M) {
	// In-process agents start commands through procgroup, which may run
	// the running executable, this test binary, as `<exe> __guard` (today
	// it declines test binaries): be the guard then, as cmd/companion is,
	// rather than run the tests again.
	if len(os.Args) > 1 && os.Args[1] == procgroup.GuardCommand {
		os.Exit(procgroup.Guard(os.Args[2:]))
	}
	dir, err := os.MkdirTemp("", "companion-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	buildDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// env is a clean environment: no keys, settings in a temp home.
func env(t *testing.T, extra ...string) []string {
	home := t.TempDir()
	return append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}, extra...)
}

// withSettings writes the user settings file into env's home.
func withSettings(t *testing.T, e []string, settings string) []string {
	t.Helper()
	home := strings.TrimPrefix(e[0], "HOME=")
	dir := filepath.Join(home, ".config", "companion")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	return e
}

// workspace makes a session root with the given files.
func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// script writes a scripted-model file and returns its path.
func script(t *testing.T, s string) string {
	t.Helper()
	var check any
	if err := json.Unmarshal([]byte(s), &check); err != nil {
		t.Fatalf("bad script in test: %v", err)
	}
	p := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// agentOpts says how a test starts companion (`companion acp`).
type agentOpts struct {
	// script is the scripted model's JSON; "" starts companion without
	// --script.
	script string
	// handler answers the agent's requests (fs, terminals, permission);
	// nil answers none.
	handler acptest.HandlerFunc
	// env is companion's environment; nil is env(t).
	env []string
	// settings, when set, is written as the user settings file in env's
	// home.
	settings string
	// flags are the command-line flags besides --script.
	flags cli.Flags
	// binary runs the real binary as a child process; otherwise the same
	// wiring (cli.Serve) runs in the test's process, where the race
	// detector sees the agent. A test that sets it says why.
	binary bool
}

// startAgent starts companion as o says and returns the editor talking to
// it; it is stopped when the test ends.
//
// In process, companion reads env through getenv only: the commands it
// runs (shell, hooks, MCP servers) inherit the test process's environment
// and working directory, and it logs to the editor's Stderr.
func startAgent(t *testing.T, o agentOpts) *acptest.Editor {
	t.Helper()
	e := o.env
	if e == nil {
		e = env(t)
	}
	if o.settings != "" {
		e = withSettings(t, e, o.settings)
	}
	f := o.flags
	if o.script != "" {
		f.Script = script(t, o.script)
	}
	if o.binary {
		return acptest.Start(t, companionBin(t), append([]string{"acp"}, flagArgs(f)...), e, o.handler)
	}
	return acptest.StartServe(t, acptest.ServeFunc(cli.Serve(getenv(e), f, "test")), o.handler)
}

// onBinary starts the real binary on script s: the starter of the smoke
// subset, which runs the scenarios of acp_test.go as editors do.
func onBinary(t *testing.T, s string, h acptest.HandlerFunc) *acptest.Editor {
	return startAgent(t, agentOpts{script: s, handler: h, binary: true})
}

// inProcess starts companion in the test's process on script s.
func inProcess(t *testing.T, s string, h acptest.HandlerFunc) *acptest.Editor {
	return startAgent(t, agentOpts{script: s, handler: h})
}

// getenv reads the NAME=value list e as a process would its environment
// (a later entry wins).
func getenv(e []string) func(string) string {
	m := make(map[string]string, len(e))
	for _, kv := range e {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return func(k string) string { return m[k] }
}

// flagArgs is f as `companion acp` arguments: every flag cli.Flags
// registers whose value is not its default, so a new flag needs no
// change here.
func flagArgs(f cli.Flags) []string {
	fs := flag.NewFlagSet("acp", flag.ContinueOnError)
	bound := new(cli.Flags)
	bound.Register(fs) // binds the flags to bound's fields, at their defaults
	*bound = f         // the flags now read f's values
	var args []string
	fs.VisitAll(func(fl *flag.Flag) {
		if v := fl.Value.String(); v != fl.DefValue {
			args = append(args, "--"+fl.Name+"="+v)
		}
	})
	return args
}

// holeTurn is a script whose first turn makes the calls and whose second,
// after the results, ends the turn.
func holeTurn(calls ...string) string {
	return `{"turns":[{"chunks":[` + strings.Join(calls, ",") + `]},
		{"match":"functionResponse","chunks":[{"text":"done"}]}],"fallback":"error"}`
}

// modelCall is a function call for the scripted model.
func modelCall(name string, args map[string]any) string {
	b, _ := json.Marshal(args)
	return fmt.Sprintf(`{"functionCall":{"name":%q,"args":%s}}`, name, b)
}

// toolUpdates joins the raw tool_call_update messages of a session.
func toolUpdates(ed *acptest.Editor, id string) string {
	var b strings.Builder
	for _, u := range ed.Updates(id) {
		if u.Kind == "tool_call_update" {
			b.Write(u.Raw)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func kinds(us []acptest.Update) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.Kind)
	}
	return out
}

// sessionID reads the id from a session/new answer.
func sessionID(m acptest.Msg) string {
	var r struct {
		SessionID string `json:"sessionId"`
	}
	json.Unmarshal(m.Result, &r)
	return r.SessionID
}

// sayText sends a prompt that must end the turn and returns the agent's
// text for it.
func sayText(t *testing.T, ed *acptest.Editor, id, prompt string) string {
	t.Helper()
	before := len(ed.Updates(id))
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, prompt))); got != "end_turn" {
		t.Fatalf("%s: stopReason = %q", prompt, got)
	}
	var text string
	for _, u := range ed.Updates(id)[before:] {
		text += u.Text()
	}
	return text
}
