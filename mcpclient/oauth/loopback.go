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

// loopback is the redirect's listener on 127.0.0.1.
type loopback struct {
	ln          net.Listener
	srv         *http.Server
	path        string
	redirectURI string
	result      chan callback
	once        sync.Once
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
	lb := &loopback{ln: ln, path: path, result: make(chan callback, 1)}
	lb.redirectURI = configured
	if configured == "" || addr == "127.0.0.1:0" {
		lb.redirectURI = "http://" + ln.Addr().String() + path
	}
	return lb, nil
}

// serve starts answering the redirect carrying state.
func (lb *loopback) serve(state string) {
	mux := http.NewServeMux()
	mux.HandleFunc(lb.path, func(w http.ResponseWriter, r *http.Request) { lb.handle(w, r, state) })
	lb.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = lb.srv.Serve(lb.ln) }()
}

// handle answers one redirect.
func (lb *loopback) handle(w http.ResponseWriter, r *http.Request, state string) {
	q := r.URL.Query()
	if q.Get("state") != state {
		http.Error(w, ErrStateMismatch.Error(), http.StatusBadRequest)
		return
	}
	var cb callback
	switch {
	case q.Get("error") != "":
		cb.err = fmt.Errorf("authorization refused: %s %s", q.Get("error"), q.Get("error_description"))
	case q.Get("code") == "":
		cb.err = errors.New("the authorization redirect has no code")
	default:
		cb.code = q.Get("code")
	}
	lb.once.Do(func() { lb.result <- cb })
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	msg := "companion is authorised. You can close this window."
	if cb.err != nil {
		w.WriteHeader(http.StatusBadRequest)
		msg = "Authorization failed: " + cb.err.Error()
	}
	fmt.Fprintf(w, "<!doctype html><title>companion</title><p>%s</p>\n", html.EscapeString(msg))
}

// wait returns the redirect's code.
func (lb *loopback) wait(ctx context.Context) (string, error) {
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case cb := <-lb.result:
		return cb.code, cb.err
	}
}

// close stops the listener.
func (lb *loopback) close() {
	if lb.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = lb.srv.Shutdown(ctx)
		return
	}
	_ = lb.ln.Close()
}
