package oauth_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"companion/mcpclient/oauth"
	"companion/mcpclient/oauth/oauthtest"
)

// The helper process: TestHelperProcess run again by this test binary
// with helperEnv set to what it does ("refresh" or "save"), on the store
// at helperStoreEnv. It says "ready", waits for a line on stdin, works and
// says what it got.
const (
	helperEnv      = "COMPANION_OAUTH_TEST_HELPER"
	helperStoreEnv = "COMPANION_OAUTH_TEST_STORE"
	helperURLEnv   = "COMPANION_OAUTH_TEST_URL"
	helperIDEnv    = "COMPANION_OAUTH_TEST_ID"
	savesEach      = 15
)

func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return // not a helper: nothing to test
	}
	store := oauth.NewStore(os.Getenv(helperStoreEnv))
	fmt.Println("ready")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		os.Exit(2)
	}
	switch mode {
	case "refresh", "renew":
		src := oauth.NewSource(store, serverName, os.Getenv(helperURLEnv), nil, nil)
		tok, err := useToken(t.Context(), src, os.Getenv(helperURLEnv), mode == "renew")
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("token", tok)
	case "save":
		if err := saveMany(store, os.Getenv(helperIDEnv)); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("saved")
	}
	os.Exit(0)
}

// useToken is the token src gives: asked for directly, or (viaRequest)
// after a request to serverURL through the Transport, which meets a 401
// when the server forgot the token.
func useToken(ctx context.Context, src *oauth.Source, serverURL string, viaRequest bool) (string, error) {
	if viaRequest {
		hc := &http.Client{Transport: &oauth.Transport{Source: src}}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, serverURL, nil)
		if err != nil {
			return "", err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return "", err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusUnauthorized {
			return "", fmt.Errorf("still 401 after renewing")
		}
	}
	return src.Token(ctx), nil
}

// saveMany saves savesEach grants named after id.
func saveMany(store *oauth.Store, id string) error {
	for i := range savesEach {
		g := &oauth.Grant{ServerURL: "https://s/mcp", AccessToken: fmt.Sprintf("%s-%d", id, i)}
		if err := store.Save(fmt.Sprintf("%s-%d", id, i), g); err != nil {
			return err
		}
	}
	return nil
}

// helper is a helper process waiting to start.
type helper struct {
	stdin io.WriteCloser
	out   *bufio.Reader
}

// startHelper starts a helper process doing mode and waits until it is
// ready.
func startHelper(t *testing.T, mode string, env ...string) *helper {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(append(os.Environ(), helperEnv+"="+mode), env...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	h := &helper{stdin: stdin, out: bufio.NewReader(stdout)}
	if line := h.line(t); line != "ready" {
		t.Fatalf("helper said %q, want ready", line)
	}
	return h
}

// line is the helper's next line of output.
func (h *helper) line(t *testing.T) string {
	t.Helper()
	s, err := h.out.ReadString('\n')
	if err != nil {
		t.Errorf("helper output: %v", err)
	}
	return strings.TrimSpace(s)
}

// goAll starts every helper and closes start (the goroutines' signal)
// together.
func goAll(t *testing.T, helpers []*helper, start chan struct{}) {
	t.Helper()
	close(start)
	for _, h := range helpers {
		if _, err := io.WriteString(h.stdin, "go\n"); err != nil {
			t.Fatal(err)
		}
	}
}

func TestOAuthConcurrentRefreshOnce(t *testing.T) {
	tests := []struct {
		name string
		mode string // the helper's
		// stale makes the stored token need renewing
		stale func(t *testing.T, srv *oauthtest.Server, store *oauth.Store, g oauth.Grant)
	}{
		{"expired before use", "refresh", func(t *testing.T, _ *oauthtest.Server, store *oauth.Store, g oauth.Grant) {
			g.Expiry = time.Now().Add(-time.Minute)
			if err := store.Save(serverName, &g); err != nil {
				t.Fatal(err)
			}
		}},
		{"refused with 401", "renew", func(_ *testing.T, srv *oauthtest.Server, _ *oauth.Store, _ oauth.Grant) {
			srv.ExpireAccessTokens()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := oauthtest.Start(oauthtest.Options{})
			defer srv.Close()
			store := newStore(t)
			g := authorize(t, srv, store, oauth.Settings{}, "")
			tt.stale(t, srv, store, *g)
			tokens := refreshTogether(t, srv, store, tt.mode)
			c := srv.Counts()
			if c.Refreshes != 1 || c.RefusedRefreshes != 0 {
				t.Errorf("refreshes %d, refused %d; want exactly one refresh", c.Refreshes, c.RefusedRefreshes)
			}
			for i, tok := range tokens {
				if tok == g.AccessToken || !srv.AccessTokenValid(tok) {
					t.Errorf("participant %d ended with %q: not a valid refreshed token", i, tok)
				}
			}
			now, err := store.Load(serverName, srv.MCPURL())
			if err != nil || now == nil || now.AccessToken != tokens[0] {
				t.Errorf("stored grant %+v (%v), want the refreshed token", now, err)
			}
		})
	}
}

// refreshTogether has two goroutines and two helper processes use the
// stored token at once, and returns the tokens they ended with.
func refreshTogether(t *testing.T, srv *oauthtest.Server, store *oauth.Store, mode string) []string {
	t.Helper()
	const goroutines, processes = 2, 2
	var helpers []*helper
	for range processes {
		helpers = append(helpers, startHelper(t, mode, helperStoreEnv+"="+store.Path(), helperURLEnv+"="+srv.MCPURL()))
	}
	start := make(chan struct{})
	tokens := make([]string, goroutines)
	errs := make([]error, goroutines)
	var wg sync.WaitGroup
	for i := range goroutines {
		// a store and a source of its own, as two sessions have
		src := oauth.NewSource(oauth.NewStore(store.Path()), serverName, srv.MCPURL(), nil, nil)
		wg.Go(func() {
			<-start
			tokens[i], errs[i] = useToken(t.Context(), src, srv.MCPURL(), mode == "renew")
		})
	}
	goAll(t, helpers, start)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	for _, h := range helpers {
		line := h.line(t)
		tok, ok := strings.CutPrefix(line, "token ")
		if !ok {
			t.Errorf("helper: %q", line)
		}
		tokens = append(tokens, tok)
	}
	return tokens
}

func TestOAuthConcurrentSaves(t *testing.T) {
	store := newStore(t)
	const goroutines, processes = 3, 2
	var helpers []*helper
	for i := range processes {
		helpers = append(helpers, startHelper(t, "save", helperStoreEnv+"="+store.Path(), fmt.Sprintf("%s=p%d", helperIDEnv, i)))
	}
	start := make(chan struct{})
	errs := make([]error, goroutines)
	var wg sync.WaitGroup
	for i := range goroutines {
		s := oauth.NewStore(store.Path()) // only the file lock orders these
		wg.Go(func() {
			<-start
			errs[i] = saveMany(s, fmt.Sprintf("g%d", i))
		})
	}
	goAll(t, helpers, start)
	wg.Wait()
	for _, h := range helpers {
		if line := h.line(t); line != "saved" {
			t.Errorf("helper: %q", line)
		}
	}
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	data, err := os.ReadFile(store.Path())
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Servers map[string]oauth.Grant `json:"servers"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("the grants file is not JSON: %v", err)
	}
	if want := (goroutines + processes) * savesEach; len(f.Servers) != want {
		t.Errorf("%d grants in the file, want %d: a write was lost", len(f.Servers), want)
	}
	if fi, err := os.Stat(store.Path()); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("grants file mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	if tmp, _ := filepath.Glob(filepath.Join(filepath.Dir(store.Path()), ".mcp-oauth-*")); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}
