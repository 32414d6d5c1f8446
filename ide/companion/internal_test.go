package companion

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestCloseDiffContent(t *testing.T) {
	tests := []struct {
		name string
		res  *mcp.CallToolResult
		want string
	}{
		{"raw text (spec)", mcp.NewToolResultText("line 1\nline 2\n"), "line 1\nline 2\n"},
		{"JSON content (shipped extension)", mcp.NewToolResultText(`{"content":"a\nb"}`), "a\nb"},
		{"JSON null content", mcp.NewToolResultText(`{"content":null}`), ""},
		{"JSON without content is raw text", mcp.NewToolResultText(`{"name":"x"}`), `{"name":"x"}`},
		{"JSON content not a string is raw text", mcp.NewToolResultText(`{"content":3}`), `{"content":3}`},
		{"brace but not JSON is raw text", mcp.NewToolResultText("{\n  code\n}\n"), "{\n  code\n}\n"},
		{"no text block", &mcp.CallToolResult{Content: []mcp.Content{}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := closeDiffContent(tt.res); got != tt.want {
				t.Errorf("closeDiffContent() = %q, want %q", got, tt.want)
			}
		})
	}
}

// fakeRT answers every request with a fixed status and body.
type fakeRT struct {
	status int
	body   string
	err    error
}

func (f fakeRT) RoundTrip(*http.Request) (*http.Response, error) {
	if f.err != nil {
		return nil, f.err
	}
	return &http.Response{StatusCode: f.status, Status: http.StatusText(f.status), Body: io.NopCloser(strings.NewReader(f.body))}, nil
}

func TestStreamWatch(t *testing.T) {
	refused := errors.New("connection refused")
	tests := []struct {
		name       string
		method     string
		resumeFrom string
		rt         fakeRT
		wantOpened bool
		wantLost   bool
		wantCause  error // checked when not nil
	}{
		{"POST is not watched", http.MethodPost, "", fakeRT{status: 200, body: "{}"}, false, false, nil},
		{"resuming GET is not watched", http.MethodGet, "7", fakeRT{status: 200, body: "x"}, false, false, nil},
		{"stream opens, then ends", http.MethodGet, "", fakeRT{status: 200, body: "data: x\n\n"}, true, true, errStreamClosed},
		{"stream refused", http.MethodGet, "", fakeRT{status: 405}, false, true, nil},
		{"stream unauthorized", http.MethodGet, "", fakeRT{status: 401}, false, true, ErrUnauthorized},
		{"network error", http.MethodGet, "", fakeRT{err: refused}, false, true, refused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cn := newConn()
			w := &streamWatch{base: tt.rt, cn: cn}
			req, _ := http.NewRequest(tt.method, "http://127.0.0.1:1/mcp", nil)
			if tt.resumeFrom != "" {
				req.Header.Set("Last-Event-ID", tt.resumeFrom)
			}
			if resp, err := w.RoundTrip(req); err == nil {
				_, _ = io.ReadAll(resp.Body)
			}
			if opened := isClosed(cn.opened); opened != tt.wantOpened {
				t.Errorf("opened = %v, want %v", opened, tt.wantOpened)
			}
			lost := isClosed(cn.lost)
			if lost != tt.wantLost {
				t.Fatalf("lost = %v, want %v", lost, tt.wantLost)
			}
			if tt.wantCause != nil && !errors.Is(cn.cause(), tt.wantCause) {
				t.Errorf("cause = %v, want %v", cn.cause(), tt.wantCause)
			}
		})
	}
}

func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
