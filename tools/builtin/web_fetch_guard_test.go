package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"companion/internal/testkit/testio"
	"companion/tools"
)

// publicIP is a documentation address (TEST-NET-3) the tests treat as a
// public host. Nothing ever connects to it: the test dialer routes it to a
// local server.
const publicIP = "203.0.113.7"

// fakeNet plays DNS and the network for the guard tests: names resolve
// through a table, and dialing publicIP reaches a local test server. Any
// other dial fails the test, so no test can reach beyond 127.0.0.1.
type fakeNet struct {
	t      *testing.T
	target string // the local server's address
	// mu guards names and dialed.
	mu     sync.Mutex
	names  map[string][]string
	dialed []string
}

func (n *fakeNet) setName(host string, addrs ...string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.names[host] = addrs
}

func (n *fakeNet) lookup(_ context.Context, host string) ([]netip.Addr, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []netip.Addr
	for _, a := range n.names[host] {
		out = append(out, netip.MustParseAddr(a))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no such host %s", host)
	}
	return out, nil
}

func (n *fakeNet) dial(ctx context.Context, network, address string) (net.Conn, error) {
	n.mu.Lock()
	n.dialed = append(n.dialed, address)
	n.mu.Unlock()
	if address != publicIP+":80" {
		n.t.Errorf("dialed %s: only %s:80 may be dialed", address, publicIP)
		return nil, errors.New("test dialer: refused")
	}
	var d net.Dialer
	return d.DialContext(ctx, network, n.target)
}

func (n *fakeNet) dials() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.dialed...)
}

// guardServer is a "public" server at public.test (publicIP) that
// redirects to private places; secretHits counts requests that reached
// its /secret page through any address.
func guardServer(t *testing.T) (n *fakeNet, tool tools.Tool, secretHits *atomic.Int32) {
	t.Helper()
	secretHits = new(atomic.Int32)
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	redirect := func(path, to string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, to, http.StatusFound)
		})
	}
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "public hello") })
	mux.HandleFunc("/secret", func(w http.ResponseWriter, r *http.Request) {
		secretHits.Add(1)
		fmt.Fprint(w, "secret")
	})
	redirect("/to-loopback", srv.URL+"/secret")
	redirect("/to-mapped", fmt.Sprintf("http://[::ffff:127.0.0.1]:%d/secret", srv.Listener.Addr().(*net.TCPAddr).Port))
	redirect("/to-metadata", "http://169.254.169.254/latest/meta-data/")
	redirect("/to-intranet", "http://intranet.test/secret")
	redirect("/to-localhost", "http://localhost/secret")
	redirect("/to-file", "file:///etc/passwd")
	redirect("/to-ok", "/ok")
	redirect("/loop", "/loop")
	n = &fakeNet{t: t, target: srv.Listener.Addr().String(), names: map[string][]string{
		"public.test":   {publicIP},
		"intranet.test": {"10.1.2.3"},
		"mixed.test":    {publicIP, "127.0.0.1"},
		"localhost":     {"127.0.0.1"},
	}}
	tool = extraTool(t, "web_fetch", ExtraOptions{LookupIP: n.lookup, Dial: n.dial})
	return n, tool, secretHits
}

func TestWebFetchRefusesPrivateTargets(t *testing.T) {
	n, tool, secretHits := guardServer(t)
	const public = " web_fetch only connects to public internet addresses."
	// A redirect to another host is not followed at all (it would need the
	// user's say for that host), private or not.
	otherHost := func(from, to string) string {
		return fmt.Sprintf("Could not fetch http://public.test/%s: it redirects to %s, on another host; "+
			"to read that page, fetch that URL with web_fetch.", from, to)
	}
	tests := []struct {
		url, want string
	}{
		{"http://public.test/ok", ""},
		{"http://public.test/to-ok", ""},
		{"http://intranet.test/", "Refused to fetch http://intranet.test/: intranet.test resolves to 10.1.2.3, a private network address;" + public},
		{"http://mixed.test/", "Refused to fetch http://mixed.test/: mixed.test resolves to 127.0.0.1, a loopback address;" + public},
		{"http://public.test/to-loopback", otherHost("to-loopback", "http://127.0.0.1:PORT/secret")},
		{"http://public.test/to-mapped", otherHost("to-mapped", "http://[::ffff:127.0.0.1]:PORT/secret")},
		{"http://public.test/to-metadata", otherHost("to-metadata", "http://169.254.169.254/latest/meta-data/")},
		{"http://public.test/to-intranet", otherHost("to-intranet", "http://intranet.test/secret")},
		{"http://public.test/to-localhost", otherHost("to-localhost", "http://localhost/secret")},
		{"http://public.test/to-file", "Could not fetch http://public.test/to-file: refused a redirect to a file: URL; only http and https are fetched."},
		{"http://public.test/loop", "Could not fetch http://public.test/loop: stopped after 5 redirects."},
	}
	port := n.target[strings.LastIndexByte(n.target, ':')+1:]
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			res := fetch(t, tool, map[string]any{"url": tt.url})
			if tt.want == "" {
				if res.IsError || !strings.HasSuffix(res.Text, "\n\npublic hello") {
					t.Errorf("got (error %v) %q, want the public page", res.IsError, res.Text)
				}
				return
			}
			if want := strings.ReplaceAll(tt.want, "PORT", port); !res.IsError || res.Text != want {
				t.Errorf("got (error %v)\n%q\nwant\n%q", res.IsError, res.Text, want)
			}
		})
	}
	if hits := secretHits.Load(); hits != 0 {
		t.Errorf("/secret was reached %d times", hits)
	}
	for _, d := range n.dials() {
		if d != publicIP+":80" {
			t.Errorf("dialed %s", d)
		}
	}
}

// TestWebFetchRebinding shows the check happens when connecting, on the
// addresses dialed: a name that was public at the first fetch and then
// resolves to loopback is refused at the second.
func TestWebFetchRebinding(t *testing.T) {
	n, tool, secretHits := guardServer(t)
	n.setName("rebind.test", publicIP)
	args := map[string]any{"url": "http://rebind.test/secret"}
	if res := fetch(t, tool, args); res.IsError || !strings.HasSuffix(res.Text, "\n\nsecret") {
		t.Fatalf("first fetch: (error %v) %s", res.IsError, res.Text)
	}
	n.setName("rebind.test", "127.0.0.1")
	res := fetch(t, tool, args)
	if !res.IsError || !strings.Contains(res.Text, "rebind.test resolves to 127.0.0.1, a loopback address") {
		t.Errorf("second fetch: (error %v) %s", res.IsError, res.Text)
	}
	if hits := secretHits.Load(); hits != 1 {
		t.Errorf("/secret reached %d times, want 1 (the public fetch)", hits)
	}
}

func TestWebFetchRefusesPrivateURLs(t *testing.T) {
	n, tool, _ := guardServer(t)
	env := newEnv(t, testio.RealTempDir(t))
	for url, reason := range map[string]string{
		"http://127.0.0.1/":                   "127.0.0.1 is a loopback address",
		"http://127.8.9.10:8080/x":            "127.8.9.10 is a loopback address",
		"http://[::1]/":                       "::1 is a loopback address",
		"http://[::ffff:127.0.0.1]/":          "::ffff:127.0.0.1 is a loopback address",
		"http://10.0.0.1/":                    "10.0.0.1 is a private network address",
		"http://172.16.5.4/":                  "172.16.5.4 is a private network address",
		"http://192.168.1.1/":                 "192.168.1.1 is a private network address",
		"http://169.254.169.254/latest":       "169.254.169.254 is a link-local address",
		"http://[fe80::1]/":                   "fe80::1 is a link-local address",
		"http://[fd00::1]/":                   "fd00::1 is a unique local address",
		"http://100.64.0.1/":                  "100.64.0.1 is a shared (CGNAT) address",
		"http://0.0.0.0/":                     "0.0.0.0 is an unspecified address",
		"http://[::]/":                        ":: is an unspecified address",
		"http://localhost:8080/":              "localhost is a name for this machine",
		"http://LOCALHOST./":                  "LOCALHOST. is a name for this machine",
		"http://app.localhost/":               "app.localhost is a name for this machine",
		"http://[64:ff9b::a00:1]/":            "64:ff9b::a00:1 is a private network address (it embeds 10.0.0.1)",
		"http://[2002:7f00:1::]/":             "2002:7f00:1:: is a loopback address (it embeds 127.0.0.1)",
		"http://239.1.2.3/":                   "239.1.2.3 is a multicast address",
		"http://255.255.255.255/":             "255.255.255.255 is a reserved address",
		"https://2130706433/":                 "", // not an address literal Go accepts; see below
		"http://0177.0.0.1/":                  "",
		"http://[::ffff:169.254.169.254]:80/": "::ffff:169.254.169.254 is a link-local address",
	} {
		_, err := tool.Prepare(env, json.RawMessage(mustJSON(t, map[string]any{"url": url})))
		if reason == "" {
			// Decimal and octal hosts are names to Go: they go to the
			// resolver, which the test table does not know, so the fetch fails
			// without connecting anywhere.
			continue
		}
		if !errors.Is(err, tools.ErrInvalidArgs) || !strings.Contains(err.Error(), reason) ||
			!strings.Contains(err.Error(), "only connects to public internet addresses") {
			t.Errorf("Prepare(%s) = %v; want a refusal saying %q", url, err, reason)
		}
	}
	for _, url := range []string{"https://2130706433/", "http://0177.0.0.1/"} {
		if res := fetch(t, tool, map[string]any{"url": url}); !res.IsError {
			t.Errorf("%s: fetched %q", url, res.Text)
		}
	}
	if d := n.dials(); len(d) != 0 {
		t.Errorf("dialed %v", d)
	}
}

// TestFetchGuardDial checks the dialer itself, and that the default one
// refuses loopback sockets through its Control hook.
func TestFetchGuardDial(t *testing.T) {
	n, _, _ := guardServer(t)
	g := newFetchGuard(false, n.lookup, n.dial)
	for _, addr := range []string{
		"127.0.0.1:80", "[::1]:443", "10.9.8.7:80", "192.168.0.10:80", "169.254.0.1:80",
		"[::ffff:127.0.0.1]:80", "localhost:80", "intranet.test:80", "mixed.test:80", "[fe80::1%lo]:80",
	} {
		conn, err := g.DialContext(context.Background(), "tcp", addr)
		if _, ok := asBlocked(err); !ok {
			if conn != nil {
				conn.Close()
			}
			t.Errorf("DialContext(%s) = %v, want a refusal", addr, err)
		}
	}
	if d := n.dials(); len(d) != 0 {
		t.Errorf("dialed %v", d)
	}
	conn, err := g.DialContext(context.Background(), "tcp", "public.test:80")
	if err != nil {
		t.Fatalf("DialContext(public.test) = %v", err)
	}
	conn.Close()

	// The system dialer's Control hook checks the socket address itself.
	def := newFetchGuard(false, nil, nil)
	if conn, err := def.dial(context.Background(), "tcp", n.target); err == nil {
		conn.Close()
		t.Errorf("default dialer connected to %s", n.target)
	} else if _, ok := asBlocked(err); !ok {
		t.Errorf("default dialer: %v, want a refusal", err)
	}
	if err := checkSocketAddr("tcp4", publicIP+":443", nil); err != nil {
		t.Errorf("checkSocketAddr(public) = %v", err)
	}
}

func TestAddrReason(t *testing.T) {
	for addr, want := range map[string]string{
		"8.8.8.8":              "",
		"2606:4700::1111":      "",
		publicIP:               "",
		"127.0.0.1":            "a loopback address",
		"::ffff:10.0.0.1":      "a private network address",
		"100.127.255.255":      "a shared (CGNAT) address",
		"100.128.0.1":          "",
		"0.1.2.3":              "a \"this network\" address",
		"198.18.0.1":           "a benchmarking address",
		"fec0::1":              "a site-local address",
		"ff02::1":              "a link-local address",
		"ff05::1":              "a multicast address",
		"64:ff9b::808:808":     "",
		"64:ff9b:1::1":         "a local-use NAT64 address",
		"2002:c0a8:101::1":     "a private network address (it embeds 192.168.1.1)",
		"::a9fe:a9fe":          "a link-local address (it embeds 169.254.169.254)",
		"fc00::1":              "a unique local address",
		"192.0.0.1":            "an IETF protocol address",
		"100::1":               "a discard-only address",
		"2001:db8::1":          "",
		"fe80::1234:5678:9abc": "a link-local address",
	} {
		if got := addrReason(netip.MustParseAddr(addr)); got != want {
			t.Errorf("addrReason(%s) = %q, want %q", addr, got, want)
		}
	}
}

// TestWebFetchStaysOnTheHost: a redirect from the host the user allowed to
// another one (an open redirect carrying data in its URL) is not
// followed, so the other host gets no request; a redirect within the host,
// or to its www. twin, is followed.
func TestWebFetchStaysOnTheHost(t *testing.T) {
	var collected atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/go", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		if r.Host == "collector.test" {
			collected.Add(1)
		}
		fmt.Fprint(w, "page on "+r.Host)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	n := &fakeNet{t: t, target: srv.Listener.Addr().String(), names: map[string][]string{
		"docs.test": {publicIP}, "www.docs.test": {publicIP}, "collector.test": {publicIP}}}
	tool := extraTool(t, "web_fetch", ExtraOptions{LookupIP: n.lookup, Dial: n.dial})
	tests := []struct {
		to, want string
		isError  bool
	}{
		{"http://collector.test/page?k=SECRET", "it redirects to http://collector.test/page?k=SECRET, on another host", true},
		{"HTTP://Collector.test/page?k=SECRET", "on another host", true},
		{"/page", "page on docs.test", false},
		{"http://www.docs.test/page", "page on www.docs.test", false},
	}
	for _, tt := range tests {
		res := fetch(t, tool, map[string]any{"url": "http://docs.test/go?to=" + url.QueryEscape(tt.to)})
		if res.IsError != tt.isError || !strings.Contains(res.Text, tt.want) {
			t.Errorf("redirect to %s: (error %v) %q, want %q", tt.to, res.IsError, res.Text, tt.want)
		}
	}
	if n := collected.Load(); n != 0 {
		t.Errorf("the other host got %d requests", n)
	}
}
