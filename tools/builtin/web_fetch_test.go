package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"companion/internal/testkit/testio"
	"companion/tools"
)

// extraTool returns the tool called name from Extras(opts).
func extraTool(t *testing.T, name string, opts ExtraOptions) tools.Tool {
	t.Helper()
	tool, ok := tools.NewRegistry(Extras(opts)...).Get(name)
	if !ok {
		t.Fatalf("no tool %q", name)
	}
	return tool
}

// fetchServer serves the pages of the web_fetch content tests on 127.0.0.1.
// It records the User-Agent of the last request.
func fetchServer(t *testing.T) (srv *httptest.Server, userAgent func() string) {
	t.Helper()
	var mu sync.Mutex
	ua := ""
	release := make(chan struct{})
	mux := http.NewServeMux()
	page := func(path, ctype, body string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			ua = r.UserAgent()
			mu.Unlock()
			if ctype == "" {
				w.Header()["Content-Type"] = nil // no sniffing by the server
			} else {
				w.Header().Set("Content-Type", ctype)
			}
			fmt.Fprint(w, body)
		})
	}
	page("/page.html", "text/html; charset=utf-8", `<!DOCTYPE html><html><head><title> Install
  guide </title><style>body{color:red}</style><script>alert("x")</script></head>
<body><nav><a href="/">Home</a></nav><h1>Installing</h1><p>Run <code>make install</code>, then read the <a href="/docs/next.html">next page</a>.</p>
<ul><li>one</li><li>two</li></ul><table><tr><th>Flag</th><th>Meaning</th></tr><tr><td>-v</td><td>verbose</td></tr></table>
<svg><title>icon</title></svg></body></html>`)
	page("/plain.txt", "text/plain; charset=utf-8", "just text\nline two\n")
	page("/data.json", "application/json", `{"name":"companion","tags":["a","b"]}`)
	page("/latin1.txt", "text/plain; charset=iso-8859-1", "caf\xe9")
	page("/latin1.html", "text/html", "<html><head><meta charset=\"iso-8859-1\"></head><body><p>na\xefve</p></body></html>")
	page("/image.png", "image/png", "\x89PNG\r\n\x1a\nfakeimage")
	page("/sniffed", "", "<!DOCTYPE html><html><body><h2>Sniffed</h2></body></html>")
	page("/blob", "application/octet-stream", "\x00\x01\x02\x03binary")
	page("/lying.txt", "text/plain", "text\x00with\x00nuls")
	page("/big.txt", "text/plain", strings.Repeat("0123456789\n", 500))
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/plain.txt", http.StatusFound)
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "<html><body><h1>Not here</h1></body></html>")
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	mux.HandleFunc("/hang-body", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "partial")
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		close(release)
		srv.Close()
	})
	return srv, func() string {
		mu.Lock()
		defer mu.Unlock()
		return ua
	}
}

// fetch runs web_fetch on args and returns its result.
func fetch(t *testing.T, tool tools.Tool, args map[string]any) *tools.Result {
	t.Helper()
	return call(t, tool, newEnv(t, testio.RealTempDir(t)), mustJSON(t, args))
}

func TestWebFetchHTML(t *testing.T) {
	srv, userAgent := fetchServer(t)
	tool := extraTool(t, "web_fetch", ExtraOptions{AllowPrivate: true})
	res := fetch(t, tool, map[string]any{"url": srv.URL + "/page.html#install", "prompt": "the install command"})
	if res.IsError {
		t.Fatalf("error result: %s", res.Text)
	}
	checkGolden(t, "web_fetch_html.txt", strings.ReplaceAll(res.Text, srv.URL, "SERVER"))
	if ua := userAgent(); !strings.Contains(ua, "companion") {
		t.Errorf("User-Agent = %q, want it to name companion", ua)
	}
	raw := res.Raw.(WebFetchRaw)
	if raw.Status != 200 || raw.ContentType != "text/html" || raw.URL != srv.URL+"/page.html" || raw.FinalURL != "" {
		t.Errorf("raw = %+v", raw)
	}
}

func TestWebFetchContentTypes(t *testing.T) {
	srv, _ := fetchServer(t)
	tool := extraTool(t, "web_fetch", ExtraOptions{AllowPrivate: true})
	tests := []struct {
		path    string
		want    []string // substrings of the result, in order
		isError bool
	}{
		{"/plain.txt", []string{"Content-Type: text/plain\n\njust text\nline two\n"}, false},
		{"/data.json", []string{"Content-Type: application/json\n\n" + `{"name":"companion","tags":["a","b"]}`}, false},
		{"/latin1.txt", []string{"\n\ncafé"}, false},
		{"/latin1.html", []string{"(converted to Markdown)\n\nnaïve"}, false},
		{"/image.png", []string{"Content-Type: image/png (not text)",
			"The response is an image (image/png, 17 bytes), not text, so its content is not shown."}, false},
		{"/sniffed", []string{"Content-Type: text/html (converted to Markdown)\n\n## Sniffed"}, false},
		{"/blob", []string{"The response is a file (application/octet-stream, 10 bytes), not text"}, false},
		{"/lying.txt", []string{"The response is a file (text/plain, 14 bytes), not text"}, false},
		{"/redirect", []string{"URL: " + srv.URL + "/plain.txt (redirected from " + srv.URL + "/redirect)\nStatus: 200 OK", "just text"}, false},
		{"/missing", []string{"The server answered 404 Not Found.\nURL: ", "# Not here"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res := fetch(t, tool, map[string]any{"url": srv.URL + tt.path})
			if res.IsError != tt.isError {
				t.Errorf("IsError = %v, want %v:\n%s", res.IsError, tt.isError, res.Text)
			}
			rest := res.Text
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("result lacks %q (in order):\n%s", w, res.Text)
				}
				rest = rest[i+len(w):]
			}
			if strings.ContainsRune(res.Text, 0) {
				t.Errorf("result holds NUL bytes: %q", res.Text)
			}
		})
	}
}

func TestWebFetchLimits(t *testing.T) {
	srv, _ := fetchServer(t)
	bigURL := map[string]any{"url": srv.URL + "/big.txt"} // 500 lines of 11 bytes
	res := fetch(t, extraTool(t, "web_fetch", ExtraOptions{AllowPrivate: true, MaxFetchBytes: 1000}), bigURL)
	raw := res.Raw.(WebFetchRaw)
	if !raw.BodyTruncated || raw.Bytes != 1000 || raw.TextCut {
		t.Errorf("read cap: raw = %+v", raw)
	}
	if !strings.Contains(res.Text, "Note: the response is longer than 1000 bytes; only its first 1000 bytes were read.") {
		t.Errorf("read cap: no note:\n%s", res.Text)
	}
	body := res.Text[strings.Index(res.Text, "\n\n")+2:]
	if len(body) != 1000 {
		t.Errorf("read cap: body is %d bytes, want 1000", len(body))
	}

	res = fetch(t, extraTool(t, "web_fetch", ExtraOptions{AllowPrivate: true, MaxFetchText: 100}), bigURL)
	raw = res.Raw.(WebFetchRaw)
	body = res.Text[strings.Index(res.Text, "\n\n")+2:]
	if !raw.TextCut || raw.BodyTruncated || len(body) > 100 || !strings.HasSuffix(body, "0123456789") {
		t.Errorf("text cut: raw = %+v, body %q", raw, body)
	}
	if !strings.Contains(res.Text, "Note: the text is 5.4 KiB; only the first 98 bytes are shown.") {
		t.Errorf("text cut: no note:\n%s", res.Text)
	}
}

func TestWebFetchTimeout(t *testing.T) {
	srv, _ := fetchServer(t)
	tool := extraTool(t, "web_fetch", ExtraOptions{AllowPrivate: true, FetchTimeout: 50 * time.Millisecond})
	for _, path := range []string{"/hang", "/hang-body"} {
		res := fetch(t, tool, map[string]any{"url": srv.URL + path})
		want := fmt.Sprintf("Fetching %s%s timed out after 50ms.", srv.URL, path)
		if !res.IsError || res.Text != want {
			t.Errorf("%s: got (error %v) %q, want %q", path, res.IsError, res.Text, want)
		}
	}
}

func TestWebFetchCancelled(t *testing.T) {
	srv, _ := fetchServer(t)
	tool := extraTool(t, "web_fetch", ExtraOptions{AllowPrivate: true})
	inv, err := tool.Prepare(newEnv(t, testio.RealTempDir(t)), json.RawMessage(mustJSON(t, map[string]any{"url": srv.URL + "/hang"})))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := inv.Execute(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Execute(cancelled) = %v, want context.Canceled", err)
	}
}

func TestWebFetchPrepare(t *testing.T) {
	tool := extraTool(t, "web_fetch", ExtraOptions{})
	if tool.Kind() != tools.KindFetch {
		t.Errorf("Kind() = %q", tool.Kind())
	}
	env := newEnv(t, testio.RealTempDir(t))
	inv, err := tool.Prepare(env, json.RawMessage(`{"url":" HTTPS://example.com/a?b=1#frag ","prompt":"find the API"}`))
	if err != nil {
		t.Fatal(err)
	}
	// A proxy would connect on web_fetch's behalf, past the address checks.
	if tr, ok := inv.(*webFetchCall).tool.client.Transport.(*http.Transport); !ok || tr.Proxy != nil || !tr.DisableKeepAlives {
		t.Error("web_fetch's transport must use no proxy and keep no idle connections")
	}
	const u = "https://example.com/a?b=1"
	c, err := inv.Confirmation(context.Background())
	want := tools.Confirmation{Type: tools.ConfirmInfo, Title: "Fetch " + u, Prompt: "find the API", URLs: []string{u}}
	if err != nil || c == nil || c.Type != want.Type || c.Title != want.Title || c.Prompt != want.Prompt ||
		len(c.URLs) != 1 || c.URLs[0] != u {
		t.Errorf("Confirmation() = %+v, %v; want %+v", c, err, want)
	}
	if inv.Title() != "Fetch "+u || inv.Locations() != nil {
		t.Errorf("Title() = %q, Locations() = %v", inv.Title(), inv.Locations())
	}
	inv, _ = tool.Prepare(env, json.RawMessage(`{"url":"http://example.com/"}`))
	if c, _ := inv.Confirmation(context.Background()); c.Prompt != "Fetch http://example.com/" {
		t.Errorf("Confirmation without prompt: %+v", c)
	}
	for _, args := range []string{
		`{}`, `{"url":""}`, `{"url":"example.com/page"}`, `{"url":"https://"}`, `{"url":"http://[::1"}`,
		`{"url":"file:///etc/passwd"}`, `{"url":"ftp://example.com/x"}`, `{"url":"gopher://example.com/"}`,
		`{"url":"javascript:alert(1)"}`, `{"url":"data:text/plain,hi"}`,
	} {
		if _, err := tool.Prepare(env, json.RawMessage(args)); !errors.Is(err, tools.ErrInvalidArgs) {
			t.Errorf("Prepare(%s) = %v, want ErrInvalidArgs", args, err)
		}
	}
	_, err = tool.Prepare(env, json.RawMessage(`{"url":"file:///etc/passwd"}`))
	if err == nil || !strings.Contains(err.Error(), "only http:// and https:// URLs are fetched") {
		t.Errorf("file URL: %v", err)
	}
}
