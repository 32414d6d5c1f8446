package companiontest

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`

func TestRequestChecks(t *testing.T) {
	srv, err := Start(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	tests := []struct {
		name   string
		edit   func(r *http.Request)
		status int
	}{
		{"good request", func(*http.Request) {}, http.StatusOK},
		{"no token", func(r *http.Request) { r.Header.Del("Authorization") }, http.StatusUnauthorized},
		{"wrong token", func(r *http.Request) { r.Header.Set("Authorization", "Bearer nope") }, http.StatusUnauthorized},
		{"not a bearer", func(r *http.Request) { r.Header.Set("Authorization", srv.Token()) }, http.StatusUnauthorized},
		{"any Origin", func(r *http.Request) { r.Header.Set("Origin", "http://127.0.0.1") }, http.StatusForbidden},
		{"foreign Host", func(r *http.Request) { r.Host = "evil.example:" + strconv.Itoa(srv.Port()) }, http.StatusForbidden},
		{"localhost Host", func(r *http.Request) { r.Host = "localhost:" + strconv.Itoa(srv.Port()) }, http.StatusOK},
		{"other path", func(r *http.Request) { r.URL.Path = "/other" }, http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL(), strings.NewReader(initialize))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Authorization", "Bearer "+srv.Token())
			tt.edit(req)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Errorf("status = %d, want %d", resp.StatusCode, tt.status)
			}
		})
	}
	http.DefaultClient.CloseIdleConnections()
}

func TestPortFile(t *testing.T) {
	tmp := t.TempDir()
	srv, err := Start(Options{TempDir: tmp, PID: 4242, Workspace: []string{"/a", "/b"}, IDEInfo: &IDEInfo{Name: "vscode", DisplayName: "VS Code"}})
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(tmp, "gemini", "ide", "gemini-ide-server-4242-"+strconv.Itoa(srv.Port())+".json")
	if srv.PortFile() != want {
		t.Errorf("PortFile() = %q, want %q", srv.PortFile(), want)
	}
	info, err := os.Stat(want)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("port file mode = %v, want 0600", info.Mode().Perm())
	}
	data, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	var pf struct {
		Port          int     `json:"port"`
		WorkspacePath string  `json:"workspacePath"`
		AuthToken     string  `json:"authToken"`
		IDEInfo       IDEInfo `json:"ideInfo"`
	}
	if err := json.Unmarshal(data, &pf); err != nil {
		t.Fatal(err)
	}
	if pf.Port != srv.Port() || pf.AuthToken != srv.Token() || pf.WorkspacePath != "/a"+string(os.PathListSeparator)+"/b" || pf.IDEInfo.Name != "vscode" {
		t.Errorf("port file = %s", data)
	}
	_ = srv.Close()
	if _, err := os.Stat(want); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("port file after Close: %v, want gone", err)
	}
}

func TestAnswersNeedAnOpenDiff(t *testing.T) {
	srv, err := Start(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if err := srv.Accept("/x", "y"); !errors.Is(err, errNoDiff) {
		t.Errorf("Accept() without a diff = %v, want errNoDiff", err)
	}
	if err := srv.Reject("/x"); !errors.Is(err, errNoDiff) {
		t.Errorf("Reject() without a diff = %v, want errNoDiff", err)
	}
	if err := srv.Notify(MethodDiffClosed, map[string]any{"filePath": "/x"}); !errors.Is(err, ErrNoStream) {
		t.Errorf("Notify() without a stream = %v, want ErrNoStream", err)
	}
}
