package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"companion/config"
	"companion/mcpclient/oauth"
	"companion/mcpclient/oauth/oauthtest"
)

func TestMCPAuthLogoutAndList(t *testing.T) {
	srv := oauthtest.Start(oauthtest.Options{})
	defer srv.Close()
	home := t.TempDir()
	t.Chdir(t.TempDir())
	run1 := runIn(home)
	if code, out := run1("mcp", "add", "--user", "remote", srv.MCPURL()); code != 0 {
		t.Fatalf("add: %d %s", code, out)
	}
	list := func(want string) {
		t.Helper()
		if _, out := run1("mcp", "list", "--user"); !strings.Contains(out, "remote\thttp\t"+srv.MCPURL()+"\tauth: "+want) {
			t.Errorf("list = %q, want auth: %s", out, want)
		}
	}
	list("none")
	cfg, err := config.Load(homeEnv(home))
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	browse := func(ctx context.Context, u string) error {
		go func() { _, _ = oauthtest.Browser(ctx, u) }()
		return nil
	}
	if code := runMCPAuth("auth", []string{"remote"}, cfg, &out, &errb, browse); code != 0 {
		t.Fatalf("auth: %d %s %s", code, out.String(), errb.String())
	}
	if !strings.Contains(errb.String(), srv.URL()+"/authorize?") {
		t.Errorf("the URL was not shown: %q", errb.String())
	}
	fi, err := os.Stat(oauth.StorePath(cfg.StateDir))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("grants file: %v %v", fi, err)
	}
	list("authorised")
	if c := srv.Counts(); c.Registrations != 1 || c.CodeExchanges != 1 {
		t.Errorf("counts = %+v", c)
	}
	if code, out := run1("mcp", "logout", "remote"); code != 0 || !strings.Contains(out, "logged out of remote") {
		t.Errorf("logout: %d %q", code, out)
	}
	list("none")
	if code, out := run1("mcp", "auth", "nope"); code != 1 || !strings.Contains(out, "no MCP server called nope") {
		t.Errorf("auth of an unknown server: %d %q", code, out)
	}
}
