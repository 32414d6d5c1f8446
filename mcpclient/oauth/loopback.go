package oauth

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// ErrStateMismatch is the answer to a redirect whose state is not the
// flow's: it is refused and the flow goes on waiting.
var ErrStateMismatch = errors.New("OAuth redirect with a wrong state")

// defaultCallbackPath is the redirect's path when none is configured.
const defaultCallbackPath = "/oauth/callback"

// loopback is the redirect's listener on 127.0.0.1. It answers one
// expected state at a time (a flow that registers anew expects another).
type loopback struct {
	ln          net.Listener
	path        string
	redirectURI string
	serveOnce   sync.Once
	srv         *http.Server

	mu     sync.Mutex
	state  string
	result chan callback // buffered: the first answer to state
}

// callback is what the redirect brought: a code or an error.
type callback struct {
	code string
	err  error
}

// listenLoopback listens for the redirect: on the port and path of
// configured (a loopback redirect URI), else on a random port.
func listenLoopback(configured string) (*loopback, error) {
	addr, path := "127.0.0.1:0", defaultCallbackPath
	if configured != "" {
		u, err := url.Parse(configured)
		if err != nil {
			return nil, fmt.Errorf("redirectUri: %w", err)
		}
		addr = "127.0.0.1:" + u.Port()
		if u.Port() == "" {
			addr = "127.0.0.1:0"
		}
		if u.Path != "" {
			path = u.Path
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("OAuth redirect listener: %w", err)
	}
	lb := &loopback{ln: ln, path: path}
	lb.redirectURI = configured
	if configured == "" || addr == "127.0.0.1:0" {
		lb.redirectURI = "http://" + ln.Addr().String() + path
	}
	return lb, nil
}

// expect starts answering the redirect carrying state (and no longer an
// earlier state) and returns where its answer arrives.
func (lb *loopback) expect(state string) <-chan callback {
	lb.mu.Lock()
	lb.state, lb.result = state, make(chan callback, 1)
	result := lb.result
	lb.mu.Unlock()
	lb.serveOnce.Do(func() {
		mux := http.NewServeMux()
		mux.HandleFunc(lb.path, lb.handle)
		lb.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = lb.srv.Serve(lb.ln) }()
	})
	return result
}

// handle answers one redirect.
func (lb *loopback) handle(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	lb.mu.Lock()
	if q.Get("state") == "" || q.Get("state") != lb.state {
		lb.mu.Unlock()
		http.Error(w, ErrStateMismatch.Error(), http.StatusBadRequest)
		return
	}
	var cb callback
	switch {
	case q.Get("error") != "":
		cb.err = &AuthorizeError{Code: q.Get("error"), Description: q.Get("error_description")}
	case q.Get("code") == "":
		cb.err = errors.New("the authorization redirect has no code")
	default:
		cb.code = q.Get("code")
	}
	select {
	case lb.result <- cb: // the first answer; later ones are dropped
	default:
	}
	lb.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	msg := "companion is authorised. You can close this window."
	if cb.err != nil {
		w.WriteHeader(http.StatusBadRequest)
		msg = "Authorization failed: " + cb.err.Error()
	}
	fmt.Fprintf(w, "<!doctype html><title>companion</title><p>%s</p>\n", html.EscapeString(msg))
}

// wait returns the code of the redirect expect's result brings.
func (lb *loopback) wait(ctx context.Context, result <-chan callback) (string, error) {
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case cb := <-result:
		return cb.code, cb.err
	}
}

// close stops the listener.
func (lb *loopback) close() {
	if lb.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = lb.srv.Shutdown(ctx)
	}
	// closed here too: Serve may not have taken the listener yet, and the
	// port must be free for the next flow when close returns
	_ = lb.ln.Close()
}
