package companiontest

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/server"
)

// IDEInfo names the editor in the port file.
type IDEInfo struct {
	Name        string `json:"name"`
	DisplayName string `json:"displayName"`
}

// Options configures a Server. Zero values take the defaults.
type Options struct {
	// TempDir receives the port file under gemini/ide/ ("": none written).
	TempDir string
	// PID is the editor process in the port file's name (0: this process).
	PID int
	// Workspace is the window's workspace folders.
	Workspace []string
	// IDEInfo goes into the port file when set.
	IDEInfo *IDEInfo
	// Token is the auth token ("": random).
	Token string
	// Addr is where to listen ("": 127.0.0.1:0); give a former server's
	// Addr to restart on its port.
	Addr string
	// Context is the params of the ide/contextUpdate each session's first
	// stream starts with (nil: an empty workspace state).
	Context any
	// Log receives the server's logs (nil: discarded).
	Log *slog.Logger
}

// Server is a fake IDE companion server. Its methods are safe for
// concurrent use.
type Server struct {
	opts     Options
	token    string
	ln       net.Listener
	http     *http.Server
	mcp      *server.StreamableHTTPServer
	portFile string
	calls    chan ToolCall
	// done is closed by Close; it ends the streams.
	done chan struct{}
	// wg counts the serving goroutine and the handlers under way.
	wg        sync.WaitGroup
	closeOnce sync.Once

	// mu guards the fields below it.
	mu      sync.Mutex
	closed  bool
	conns   map[net.Conn]struct{}
	streams map[*stream]struct{}
	// pushed holds the sessions whose first stream has started.
	pushed map[string]bool
	// context is the current ide/contextUpdate params.
	context json.RawMessage
	// diffs maps the open diffs' paths to their text.
	diffs       map[string]string
	closeJSON   bool
	openDiffErr string
}

// Start listens and serves until Close, with the port file written.
func Start(opts Options) (*Server, error) {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.PID == 0 {
		opts.PID = os.Getpid()
	}
	s := &Server{
		opts:    opts,
		token:   opts.Token,
		calls:   make(chan ToolCall, 64),
		done:    make(chan struct{}),
		conns:   map[net.Conn]struct{}{},
		streams: map[*stream]struct{}{},
		pushed:  map[string]bool{},
		diffs:   map[string]string{},
	}
	if s.token == "" {
		s.token = randomToken()
	}
	if err := s.setContext(opts.Context); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("companiontest: listen: %w", err)
	}
	s.ln = ln
	s.mcp = server.NewStreamableHTTPServer(s.newMCPServer(),
		server.WithEndpointPath("/mcp"),
		server.WithStreamableHTTPLogger(opts.Log))
	s.http = &http.Server{Handler: s, ConnState: s.trackConn, ErrorLog: log.New(io.Discard, "", 0)}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		_ = s.http.Serve(ln)
	}()
	if err := s.writePortFile(); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// randomToken returns 32 random hex digits.
func randomToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Port is the port the server listens on.
func (s *Server) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// Addr is the address the server listens on, for a restart on the same port.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// URL is the MCP endpoint.
func (s *Server) URL() string { return "http://" + s.Addr() + "/mcp" }

// Token is the auth token the server expects.
func (s *Server) Token() string { return s.token }

// PortFile is the port file written ("" without Options.TempDir).
func (s *Server) PortFile() string { return s.portFile }

// Close stops the server: it ends every stream and connection, waits for
// its goroutines and removes the port file. It is idempotent.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		close(s.done)
		_ = s.http.Close()
		_ = s.mcp.Shutdown(context.Background())
		s.wg.Wait()
		if s.portFile != "" {
			_ = os.Remove(s.portFile)
		}
	})
	return nil
}

// Drop breaks every client connection at once, as a crashing or reloading
// editor would, and keeps serving.
func (s *Server) Drop() {
	s.mu.Lock()
	conns := make([]net.Conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
	}
}

// trackConn keeps the set of open connections for Drop.
func (s *Server) trackConn(c net.Conn, state http.ConnState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch state {
	case http.StateNew:
		s.conns[c] = struct{}{}
	case http.StateClosed, http.StateHijacked:
		delete(s.conns, c)
	}
}

// writePortFile writes the discovery file (mode 600) when TempDir is set.
func (s *Server) writePortFile() error {
	if s.opts.TempDir == "" {
		return nil
	}
	dir := filepath.Join(s.opts.TempDir, "gemini", "ide")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("companiontest: %w", err)
	}
	body := map[string]any{
		"port":          s.Port(),
		"workspacePath": strings.Join(s.opts.Workspace, string(os.PathListSeparator)),
		"authToken":     s.token,
	}
	if s.opts.IDEInfo != nil {
		body["ideInfo"] = s.opts.IDEInfo
	}
	data, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("companiontest: %w", err)
	}
	name := "gemini-ide-server-" + strconv.Itoa(s.opts.PID) + "-" + strconv.Itoa(s.Port()) + ".json"
	s.portFile = filepath.Join(dir, name)
	if err := os.WriteFile(s.portFile, data, 0o600); err != nil {
		return fmt.Errorf("companiontest: %w", err)
	}
	return nil
}

// ServeHTTP checks every request (path, Origin, Host, bearer token), then
// serves the GET stream itself and hands the rest to mcp-go.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "closing", http.StatusServiceUnavailable)
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()
	if status, msg := s.check(r); status != 0 {
		http.Error(w, msg, status)
		return
	}
	if r.Method == http.MethodGet {
		s.serveStream(w, r)
		return
	}
	s.mcp.ServeHTTP(w, r)
}

// check returns the HTTP status refusing r, or 0 to serve it.
func (s *Server) check(r *http.Request) (int, string) {
	if r.URL.Path != "/mcp" {
		return http.StatusNotFound, "not found"
	}
	if r.Header.Get("Origin") != "" {
		return http.StatusForbidden, "Origin not allowed"
	}
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	if host != "localhost" && host != "127.0.0.1" {
		return http.StatusForbidden, "Host not allowed"
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) != 1 {
		return http.StatusUnauthorized, "Unauthorized"
	}
	return 0, ""
}

// errNoDiff means the file has no open diff.
var errNoDiff = errors.New("companiontest: no open diff for the file")
