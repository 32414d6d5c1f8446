package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func TestMCPCommands(t *testing.T) {
	home := t.TempDir()
	t.Chdir(t.TempDir()) // the project scope, not used here, would write in the working directory
	run1 := runIn(home)
	if code, out := run1("mcp", "add", "--user", "--env", "TOKEN=x", "files", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"); code != 0 {
		t.Fatalf("add: %d %s", code, out)
	}
	if code, out := run1("mcp", "add", "-s", "user", "--header", "Authorization: Bearer t", "remote", "https://mcp.example/mcp"); code != 0 {
		t.Fatalf("add url: %d %s", code, out)
	}
	code, out := run1("mcp", "list", "--user")
	if code != 0 || !strings.Contains(out, "files\tstdio\tnpx -y @modelcontextprotocol/server-filesystem /tmp") || !strings.Contains(out, "remote\thttp\thttps://mcp.example/mcp") {
		t.Errorf("list: %d %q", code, out)
	}
	if code, _ := run1("mcp", "remove", "--user", "files"); code != 0 {
		t.Errorf("remove failed")
	}
	if code, _ := run1("mcp", "remove", "--user", "files"); code != 1 {
		t.Errorf("removing twice must fail")
	}
	if _, out := run1("mcp", "list", "--user"); strings.Contains(out, "files") {
		t.Errorf("still listed: %q", out)
	}
	if !strings.HasPrefix(filepath.Join(home, ".config", "companion", "settings.json"), home) {
		t.Fatal("settings path")
	}
	if code, _ := run1("mcp"); code != 2 {
		t.Error("bare mcp must be a usage error")
	}
}

func TestUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(nil, nil, &out, &errb, func(string) string { return "" }); code != 2 || !strings.Contains(errb.String(), "companion acp") {
		t.Errorf("no args: %d %q", code, errb.String())
	}
	out.Reset()
	if code := run([]string{"version"}, nil, &out, &errb, func(string) string { return "" }); code != 0 || !strings.HasPrefix(out.String(), "companion ") {
		t.Errorf("version: %d %q", code, out.String())
	}
}

// runIn returns a runner of companion's command line with HOME set to
// home (and nothing else in the environment); it answers the exit code and
// everything printed.
func runIn(home string) func(args ...string) (int, string) {
	getenv := homeEnv(home)
	return func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := run(args, nil, &out, &errb, getenv)
		return code, out.String() + errb.String()
	}
}

// homeEnv is an environment holding only HOME.
func homeEnv(home string) func(string) string {
	return func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
}

// TestSubcommandTable: every name in the dispatch table is named in the
// usage, and each dispatches as a subcommand (never as a prompt: a prompt
// without a key would fail with an ExecutionError on stdout).
func TestSubcommandTable(t *testing.T) {
	t.Chdir(t.TempDir())
	for name := range subcommands() {
		t.Run(name, func(t *testing.T) {
			if !strings.HasPrefix(name, "-") && name != "help" && !strings.Contains(usage, "companion "+name) {
				t.Errorf("usage does not name %q", name)
			}
			var out, errb bytes.Buffer
			run([]string{name, "--help"}, strings.NewReader(""), &out, &errb, homeEnv(t.TempDir()))
			if strings.Contains(out.String()+errb.String(), "ExecutionError") {
				t.Errorf("%q ran as a prompt: %s %s", name, out.String(), errb.String())
			}
		})
	}
}
