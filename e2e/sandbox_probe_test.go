package e2e

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"

	"companion/headless"
	"companion/host"
	"companion/internal/cli"
	"companion/internal/testkit/acptest"
	"companion/tools/sandbox"
)

// fakeNoBackend is the reason the counting probe gives: every reader of
// the backend must report it, so each is seen to ask the shared prober.
const fakeNoBackend = "fake probe: PROBE-4711 finds no backend"

// TestSandboxProbedOnce: with the sandbox on, initialize, two sessions
// with /status each and a shell command probe for the backend once in
// all, through the prober the server was given; each of them reports
// that probe's answer.
func TestSandboxProbedOnce(t *testing.T) {
	t.Parallel()
	var probes atomic.Int32
	probe := sandbox.NewProber(func(sandbox.Backend, string) (sandbox.ProbeResult, error) {
		probes.Add(1)
		return sandbox.ProbeResult{}, errors.New(fakeNoBackend)
	})
	e := env(t)
	f := cli.Flags{Sandbox: "read-only",
		Script: script(t, `{"turns":[{"chunks":[`+shellCall("echo hi")+`]},{"chunks":[{"text":"done"}]}]}`)}
	serve := func(ctx context.Context, in io.Reader, out io.Writer, logw io.Writer) error {
		cfg, err := cli.LoadConfig(getenv(e), f)
		if err != nil {
			return err
		}
		return cli.ServeACP(ctx, cli.ACP{Version: "test", Config: cfg, Getenv: getenv(e), In: in, Out: out,
			Log: slog.New(slog.NewTextHandler(logw, nil)), Sandbox: probe})
	}
	fake := acptest.NewFake()
	fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) { return "proceed_once", nil }
	ed := acptest.StartServe(t, serve, fake.Handle)
	if init := ed.Initialize(map[string]any{}); !strings.Contains(string(init.Result), "PROBE-4711") {
		t.Errorf("initialize does not report the shared probe's answer: %s", init.Result)
	}
	var ids []string
	for range 2 {
		id := ed.NewSession(workspace(t, nil))
		ids = append(ids, id)
		ed.Wait(ed.Prompt(id, "/status"))
	}
	ed.Wait(ed.Prompt(ids[0], "run it"))
	for i, id := range ids {
		var text strings.Builder
		for _, u := range ed.Updates(id) {
			text.Write(u.Raw)
		}
		if n := strings.Count(text.String(), "PROBE-4711"); n < 1+(1-i) {
			t.Errorf("session %d: the shared probe's answer shows %d times in /status and the shell result:\n%s", i, n, text.String())
		}
	}
	ed.Close()
	if n := probes.Load(); n != 1 {
		t.Errorf("%d probes, want one for the whole server", n)
	}
}

// TestSandboxProbedOnceInRun: `companion run` with the sandbox on and a
// hook probes for the backend once: the shell tool and the hook's
// command sandbox ask the prober the run was given.
func TestSandboxProbedOnceInRun(t *testing.T) {
	t.Parallel()
	var probes atomic.Int32
	probe := sandbox.NewProber(func(sandbox.Backend, string) (sandbox.ProbeResult, error) {
		probes.Add(1)
		return sandbox.ProbeResult{}, errors.New(fakeNoBackend)
	})
	e := withSettings(t, env(t), `{"hooks":{"BeforeTool":[{"matcher":"run_shell_command","command":"true"}]}}`)
	f := cli.Flags{Sandbox: "read-only",
		Script: script(t, `{"turns":[{"chunks":[`+shellCall("echo hi")+`]},{"chunks":[{"text":"done"}]}]}`)}
	cfg, err := cli.LoadConfig(getenv(e), f)
	if err != nil {
		t.Fatal(err)
	}
	var out, errs strings.Builder
	code := cli.RunHeadless(t.Context(), headless.Options{Prompt: "run it", Stdout: &out, Stderr: &errs,
		OutputFormat: "json", ApprovalMode: "yolo", Cwd: workspace(t, nil),
		Options: host.Options{Config: cfg, Getenv: getenv(e), Sandbox: probe, Log: slog.New(slog.DiscardHandler)}})
	if code != headless.ExitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errs.String())
	}
	if !strings.Contains(out.String(), "PROBE-4711") {
		t.Errorf("the shell result does not report the shared probe's answer:\n%s", out.String())
	}
	if n := probes.Load(); n != 1 {
		t.Errorf("%d probes, want one for the whole run", n)
	}
}
