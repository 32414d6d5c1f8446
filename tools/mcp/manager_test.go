package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"companion/tools"
)

func TestFakeServerToolsPromptsResources(t *testing.T) {
	var changes atomic.Int32
	cfg := fakeServer("fake", "ok")
	cfg.ExcludeTools = []string{"hidden"}
	m := startManager(t, []ServerConfig{cfg}, testOptions(t, &changes))
	if !m.WaitReady(context.Background(), 20*time.Second) {
		t.Fatal("WaitReady: the server did not finish starting")
	}
	st := status(t, m, "fake")
	if st.State != StateReady || st.PID == 0 || st.Transport != TransportStdio {
		t.Fatalf("status = %+v, want ready stdio with a pid", st)
	}
	if changes.Load() == 0 {
		t.Error("OnChange was not called when the server became ready")
	}
	want := []string{"mcp_fake_add_tool", "mcp_fake_ask", "mcp_fake_crash", "mcp_fake_echo", "mcp_fake_fail", "mcp_fake_hang",
		"mcp_fake_image", "mcp_fake_roots", "mcp_fake_roots_changes", "mcp_fake_sample", "mcp_fake_visit", readResourceName, listResourcesName}
	if got := toolNames(m); !slices.Equal(got, want) {
		t.Fatalf("tools = %v, want %v", got, want)
	}

	if res := run(t, m, "mcp_fake_echo", map[string]any{"text": "hi"}); res.Text != "echo: hi" || res.IsError {
		t.Errorf("echo = %+v", res)
	}
	res := run(t, m, "mcp_fake_image", nil)
	if len(res.Images) != 1 || res.Images[0].MIMEType != "image/png" || !bytes.Equal(res.Images[0].Data, pixelPNG) {
		t.Errorf("image result = %+v", res)
	}
	if res := run(t, m, "mcp_fake_fail", nil); !res.IsError || res.Text != "it broke" {
		t.Errorf("fail = %+v, want an error result", res)
	}

	prompts := m.Prompts()
	if len(prompts) != 1 || prompts[0].Name != "greet" || prompts[0].Server != "fake" ||
		len(prompts[0].Arguments) != 1 || !prompts[0].Arguments[0].Required {
		t.Fatalf("prompts = %+v", prompts)
	}
	text, err := m.GetPrompt(context.Background(), "fake", "greet", map[string]string{"name": "Ada"})
	if err != nil || text != "Say hello to Ada\n\n[assistant]\nHello!" {
		t.Errorf("GetPrompt = %q, %v", text, err)
	}
	if _, err := m.GetPrompt(context.Background(), "fake", "greet", nil); !errors.Is(err, ErrMissingArgument) {
		t.Errorf("GetPrompt without name: %v, want ErrMissingArgument", err)
	}

	rs, err := m.ListResources(context.Background())
	if err != nil || len(rs) != 2 {
		t.Fatalf("ListResources = %+v, %v", rs, err)
	}
	if res := run(t, m, readResourceName, map[string]string{"server": "fake", "uri": "fake://note"}); res.Text != "[resource fake://note]\na note" {
		t.Errorf("read note = %+v", res)
	}
	res = run(t, m, readResourceName, map[string]string{"server": "fake", "uri": "fake://pixel"})
	if len(res.Images) != 1 || !bytes.Equal(res.Images[0].Data, pixelPNG) {
		t.Errorf("read pixel = %+v", res)
	}
	listing := "Resources 1-2 of 2 (server | uri | name | type | size | description):\n" +
		"- fake | fake://note | note | text/plain | size unknown | \n" +
		"- fake | fake://pixel | pixel | image/png | size unknown | "
	if res := run(t, m, listResourcesName, map[string]any{"server": "fake"}); res.IsError || res.Text != listing {
		t.Errorf("list_mcp_resources = %+v, want %q", res, listing)
	}
	if _, err := findTool(t, m, listResourcesName).Prepare(&tools.Env{}, []byte(`{"server":"nope"}`)); !errors.Is(err, tools.ErrInvalidArgs) {
		t.Errorf("list_mcp_resources of an unknown server: %v, want ErrInvalidArgs", err)
	}
}

func TestConfirmation(t *testing.T) {
	trusted := fakeServer("trusted", "ok")
	trusted.Trust = true
	m := startManager(t, []ServerConfig{fakeServer("fake", "ok"), trusted}, testOptions(t, nil))
	m.WaitReady(context.Background(), 20*time.Second)

	inv, err := findTool(t, m, "mcp_fake_echo").Prepare(&tools.Env{}, []byte(`{"text":"hi"}`))
	if err != nil {
		t.Fatal(err)
	}
	conf, err := inv.Confirmation(context.Background())
	want := &tools.Confirmation{Type: tools.ConfirmMCP, Title: `Run "echo" from MCP server "fake"`,
		Server: "fake", Tool: "echo", Arguments: "{\n  \"text\": \"hi\"\n}"}
	if err != nil || conf == nil || !confEqual(*conf, *want) {
		t.Errorf("Confirmation = %+v, %v; want %+v", conf, err, want)
	}
	inv, _ = findTool(t, m, "mcp_trusted_echo").Prepare(&tools.Env{}, []byte(`{"text":"hi"}`))
	if conf, err := inv.Confirmation(context.Background()); conf != nil || err != nil {
		t.Errorf("trusted Confirmation = %+v, %v; want nil", conf, err)
	}
	if _, err := findTool(t, m, "mcp_fake_echo").Prepare(&tools.Env{}, []byte(`[1]`)); !errors.Is(err, tools.ErrInvalidArgs) {
		t.Errorf("Prepare with an array: %v, want ErrInvalidArgs", err)
	}
	if tl := findTool(t, m, readResourceName); tl.Kind() != tools.KindRead {
		t.Errorf("read resource kind = %s", tl.Kind())
	}
}

// confEqual compares the fields an MCP confirmation sets.
func confEqual(a, b tools.Confirmation) bool {
	return a.Type == b.Type && a.Title == b.Title && a.Server == b.Server && a.Tool == b.Tool && a.Arguments == b.Arguments
}

func TestServerThatExitsAtOnce(t *testing.T) {
	var changes atomic.Int32
	opts := testOptions(t, &changes)
	opts.MaxRestarts = 2
	m := startManager(t, []ServerConfig{fakeServer("bad", "exit"), fakeServer("good", "ok")}, opts)
	if !m.WaitReady(context.Background(), 20*time.Second) {
		t.Fatal("WaitReady gave up")
	}
	waitFor(t, "bad failed", stateIs(m, "bad", StateFailed))
	st := status(t, m, "bad")
	if st.Restarts != 2 || !strings.Contains(st.LastError, "exit status 1") ||
		!strings.Contains(st.LastError, "missing token") {
		t.Errorf("status = %+v, want 2 restarts and the exit status and stderr", st)
	}
	if !hasTool(m, "mcp_good_echo") || slices.ContainsFunc(toolNames(m), func(n string) bool { return strings.HasPrefix(n, "mcp_bad") }) {
		t.Errorf("tools = %v", toolNames(m))
	}
	if d := m.Describe(); !strings.Contains(d, "### bad (stdio): failed") || !strings.Contains(d, "missing token") ||
		!strings.Contains(d, "### good (stdio): ready") {
		t.Errorf("Describe =\n%s", d)
	}
	if _, err := m.GetPrompt(context.Background(), "bad", "x", nil); !errors.Is(err, ErrUnknownPrompt) {
		t.Errorf("GetPrompt on a failed server: %v", err)
	}
	if _, err := m.ReadResource(context.Background(), "bad", "x://y"); !errors.Is(err, ErrNotReady) {
		t.Errorf("ReadResource on a failed server: %v", err)
	}
}

func TestServerCrashesMidCall(t *testing.T) {
	m := startManager(t, []ServerConfig{fakeServer("fake", "ok")}, testOptions(t, nil))
	m.WaitReady(context.Background(), 20*time.Second)
	old := status(t, m, "fake").PID

	res := run(t, m, "mcp_fake_crash", nil)
	if !res.IsError || !strings.Contains(res.Text, "exit status 3") || !strings.Contains(res.Text, "crashing now") {
		t.Errorf("crash result = %+v, want an error with the exit status and stderr", res)
	}
	waitFor(t, "restarted and ready", func() bool {
		st := status(t, m, "fake")
		return st.State == StateReady && st.Restarts == 1
	})
	st := status(t, m, "fake")
	if st.PID == old || processAlive(old) {
		t.Errorf("pid %d after restart, old %d alive=%v", st.PID, old, processAlive(old))
	}
	if !strings.Contains(st.LastError, "exit status 3") {
		t.Errorf("LastError = %q", st.LastError)
	}
	if res := run(t, m, "mcp_fake_echo", map[string]string{"text": "again"}); res.Text != "echo: again" {
		t.Errorf("echo after restart = %+v", res)
	}
}

// TestToolsGoneWhileRestarting: a server that is down offers no tools; a
// call prepared before it went down answers that it is being restarted.
func TestToolsGoneWhileRestarting(t *testing.T) {
	opts := testOptions(t, nil)
	opts.Backoff, opts.MaxBackoff = time.Hour, time.Hour
	m := startManager(t, []ServerConfig{fakeServer("fake", "ok")}, opts)
	m.WaitReady(context.Background(), 20*time.Second)
	inv, err := findTool(t, m, "mcp_fake_echo").Prepare(&tools.Env{}, json.RawMessage(`{"text":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	run(t, m, "mcp_fake_crash", nil)
	waitFor(t, "restarting", stateIs(m, "fake", StateRestarting))
	waitFor(t, "its tools gone", func() bool { return len(toolNames(m)) == 0 })
	if ps := m.Prompts(); len(ps) != 0 {
		t.Errorf("prompts while down = %v, want none", ps)
	}
	res, err := inv.Execute(context.Background(), nil)
	if err != nil || !res.IsError || !strings.Contains(res.Text, "being restarted") || !strings.Contains(res.Text, "exit status 3") {
		t.Errorf("result while restarting = %+v, %v", res, err)
	}
}

func TestCallTimesOut(t *testing.T) {
	cfg := fakeServer("fake", "ok")
	cfg.Timeout = 300 * time.Millisecond
	m := startManager(t, []ServerConfig{cfg}, testOptions(t, nil))
	m.WaitReady(context.Background(), 20*time.Second)
	res := run(t, m, "mcp_fake_hang", nil)
	if !res.IsError || !strings.Contains(res.Text, "did not answer within 300ms") {
		t.Errorf("hang = %+v, want a timeout error", res)
	}
	if res := run(t, m, "mcp_fake_echo", map[string]string{"text": "still here"}); res.Text != "echo: still here" {
		t.Errorf("echo after a timeout = %+v", res)
	}
	if st := status(t, m, "fake"); st.State != StateReady || st.Restarts != 0 {
		t.Errorf("status after a timeout = %+v", st)
	}
}

func TestCallCancelled(t *testing.T) {
	m := startManager(t, []ServerConfig{fakeServer("fake", "ok")}, testOptions(t, nil))
	m.WaitReady(context.Background(), 20*time.Second)
	inv, _ := findTool(t, m, "mcp_fake_hang").Prepare(&tools.Env{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := inv.Execute(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Execute after cancel: %v, want context.Canceled", err)
	}
}

func TestServerNeverAnswers(t *testing.T) {
	opts := testOptions(t, nil)
	opts.ConnectTimeout = 300 * time.Millisecond
	opts.MaxRestarts = -1
	m := startManager(t, []ServerConfig{fakeServer("mute", "stubborn")}, opts)
	waitFor(t, "mute failed", stateIs(m, "mute", StateFailed))
	st := status(t, m, "mute")
	if !strings.Contains(st.LastError, "no answer to initialize within 300ms") || st.Restarts != 0 {
		t.Errorf("status = %+v", st)
	}
}

func TestCloseKillsStubbornServer(t *testing.T) {
	opts := testOptions(t, nil)
	m := NewManager([]ServerConfig{fakeServer("mute", "stubborn")}, opts)
	m.Start(context.Background())
	// The pid is only in the status once connected; find it in /proc.
	pid := waitChildPID(t, "stubborn")
	closeAndCheck(t, m)
	if processAlive(pid) {
		t.Errorf("stubborn server %d survived Close", pid)
	}
}

// waitChildPID finds the pid of this process's child fake server in mode.
func waitChildPID(t *testing.T, mode string) int {
	t.Helper()
	var pid int
	waitFor(t, "the "+mode+" child", func() bool {
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			n, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			env, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
			stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
			if bytes.Contains(env, []byte(fakeModeEnv+"="+mode+"\x00")) &&
				bytes.Contains(stat, []byte(" "+strconv.Itoa(os.Getpid())+" ")) {
				pid = n
				return true
			}
		}
		return false
	})
	return pid
}

func TestCloseKillsProcessGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	cfg := fakeServer("parent", "child")
	cfg.Env[fakeChildPIDEnv] = pidFile
	m := NewManager([]ServerConfig{cfg}, testOptions(t, nil))
	m.Start(context.Background())
	m.WaitReady(context.Background(), 20*time.Second)
	if st := status(t, m, "parent"); st.State != StateReady {
		t.Fatalf("status = %+v", st)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	child, _ := strconv.Atoi(string(data))
	if !processAlive(child) {
		t.Fatalf("grandchild %d is not running before Close", child)
	}
	closeAndCheck(t, m)
	waitFor(t, "the grandchild killed", func() bool { return !processAlive(child) })
}

func TestListChanged(t *testing.T) {
	var changes atomic.Int32
	m := startManager(t, []ServerConfig{fakeServer("fake", "ok")}, testOptions(t, &changes))
	m.WaitReady(context.Background(), 20*time.Second)
	before := changes.Load()
	if hasTool(m, "mcp_fake_extra") {
		t.Fatal("extra is there before add_tool")
	}
	run(t, m, "mcp_fake_add_tool", nil)
	waitFor(t, "extra listed", func() bool { return hasTool(m, "mcp_fake_extra") })
	if changes.Load() <= before {
		t.Error("OnChange was not called after list_changed")
	}
	if res := run(t, m, "mcp_fake_extra", nil); res.Text != "extra" {
		t.Errorf("extra = %+v", res)
	}
}

func TestInvalidConfigs(t *testing.T) {
	m := startManager(t, []ServerConfig{
		{Name: "nothing"},
		{Name: "web", Transport: TransportSSE},
		fakeServer("dup", "ok"),
		fakeServer("dup", "ok"),
	}, testOptions(t, nil))
	m.WaitReady(context.Background(), 20*time.Second)
	sts := m.Status()
	if len(sts) != 4 {
		t.Fatalf("statuses = %+v", sts)
	}
	for i, want := range []string{"needs a command or a url", "sse needs a url", "", "duplicate server name"} {
		if want == "" {
			if sts[i].State != StateReady {
				t.Errorf("first dup = %+v", sts[i])
			}
			continue
		}
		if sts[i].State != StateFailed || !strings.Contains(sts[i].LastError, want) {
			t.Errorf("status %d = %+v, want failed with %q", i, sts[i], want)
		}
	}
}

func TestWaitReadyIsBounded(t *testing.T) {
	opts := testOptions(t, nil)
	opts.ConnectTimeout = time.Hour
	m := startManager(t, []ServerConfig{fakeServer("mute", "stubborn")}, opts)
	if m.WaitReady(context.Background(), 50*time.Millisecond) {
		t.Error("WaitReady reported ready for a server that never answers")
	}
	if st := status(t, m, "mute"); st.State != StateConnecting {
		t.Errorf("status = %+v, want connecting", st)
	}
	if res := (&mcpCall{t: &mcpTool{srv: m.servers[0]}}).mustExecute(t); !strings.Contains(res.Text, "still starting") {
		t.Errorf("call while connecting = %+v", res)
	}
}

// mustExecute runs the call, failing the test on a Go error.
func (c *mcpCall) mustExecute(t *testing.T) *tools.Result {
	t.Helper()
	res, err := c.Execute(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestCloseBeforeStartAndTwice(t *testing.T) {
	m := NewManager([]ServerConfig{fakeServer("fake", "ok")}, Options{})
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	m.Start(context.Background())
	if st := m.Status()[0]; st.State != StateConnecting || st.PID != 0 {
		t.Errorf("status after Close then Start = %+v, want nothing started", st)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if d := NewManager(nil, Options{}).Describe(); d != "No MCP servers are configured.\n" {
		t.Errorf("Describe = %q", d)
	}
}

// TestElicitation: a server's question reaches the Elicitor with its
// message and schema, and the answer (or the failure to ask) reaches the
// server; without an Elicitor the server is told companion cannot ask.
func TestElicitation(t *testing.T) {
	tests := []struct {
		name   string
		answer ElicitAnswer
		err    error
		none   bool // no Elicitor
		want   string
		isErr  bool
	}{
		{name: "accept", answer: ElicitAnswer{Action: ElicitAccept, Content: map[string]any{"name": "Ada"}}, want: "action=accept name=Ada"},
		{name: "decline", answer: ElicitAnswer{Action: ElicitDecline, Content: map[string]any{"name": "dropped"}}, want: "action=decline name="},
		{name: "cancel", answer: ElicitAnswer{Action: ElicitCancel}, want: "action=cancel name="},
		{name: "the client failed", err: errors.New("no form today"), want: "no form today", isErr: true},
		{name: "no elicitor", none: true, want: "no elicitation handler", isErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			elicit := func(context.Context, Elicitation) (ElicitAnswer, error) { return tt.answer, tt.err }
			if tt.none {
				elicit = nil
			}
			asked := elicitCall(t, "mcp_fake_ask", elicit, tt.want, tt.isErr)
			if tt.none {
				return
			}
			if len(asked) != 1 || asked[0].Server != "fake" || asked[0].Message != "Who are you?" ||
				!strings.Contains(string(asked[0].Schema), `"required":["name"]`) {
				t.Errorf("asked %+v", asked)
			}
		})
	}
}

// elicitCall starts the fake server with elicit as the Elicitor (nil:
// none), calls tool, checks that the result holds want and is an error
// as isErr says, and returns the questions elicit was asked.
func elicitCall(t *testing.T, tool string, elicit func(context.Context, Elicitation) (ElicitAnswer, error), want string, isErr bool) []Elicitation {
	t.Helper()
	var asked []Elicitation
	opts := testOptions(t, nil)
	if elicit != nil {
		opts.Elicit = func(ctx context.Context, q Elicitation) (ElicitAnswer, error) {
			asked = append(asked, q)
			return elicit(ctx, q)
		}
	}
	m := startManager(t, []ServerConfig{fakeServer("fake", "ok")}, opts)
	if !m.WaitReady(context.Background(), 20*time.Second) {
		t.Fatal("the server did not start")
	}
	res := run(t, m, tool, map[string]any{})
	if !strings.Contains(res.Text, want) || res.IsError != isErr {
		t.Errorf("result = %+v, want %q (error %v)", res, want, isErr)
	}
	return asked
}
