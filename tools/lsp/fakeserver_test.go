package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sourcegraph/jsonrpc2"

	"companion/lspclient"
)

// fakeModeEnv, when set, makes the test binary a language server
// (TestMain): "push" publishes diagnostics when a document opens, "pull"
// says diagnosticProvider and only answers textDocument/diagnostic.
const fakeModeEnv = "COMPANION_TEST_FAKE_LSP"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeModeEnv); mode != "" {
		serveFake(mode)
		return
	}
	os.Exit(m.Run())
}

// fakeServer is a language server whose diagnostics are the lines of a
// document that contain "ERR", each an error whose message is the line.
// Pulled reports number themselves ("[report N]" ends each message) and
// their result ID is the set of lines, so an unchanged document is
// answered "unchanged" when the client names its last report. A line
// "RELATED name" adds the report of the file name beside the document,
// read from disk, as a related document. A document with "BUSY" is
// cancelled with retriggerRequest at its first pull; one with
// "SAYUNCHANGED" is answered "unchanged" at its first pull, whatever the
// client named; one with "FAILPULL" fails every pull but has its
// diagnostics published.
type fakeServer struct {
	pull bool

	mu      sync.Mutex
	texts   map[string]string
	reports int
	busied  map[string]bool
}

// serveFake runs the fake server on stdin and stdout until exit.
func serveFake(mode string) {
	f := &fakeServer{pull: mode == "pull", texts: map[string]string{}, busied: map[string]bool{}}
	stream := jsonrpc2.NewBufferedStream(stdio{}, jsonrpc2.VSCodeObjectCodec{})
	conn := jsonrpc2.NewConn(context.Background(), stream, f)
	<-conn.DisconnectNotify()
}

// stdio is the process's stdin and stdout as one stream.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return nil }

var _ io.ReadWriteCloser = stdio{}

// Handle implements jsonrpc2.Handler.
func (f *fakeServer) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	var p struct {
		TextDocument     lspclient.TextDocumentItem `json:"textDocument"`
		PreviousResultID string                     `json:"previousResultId"`
	}
	if req.Params != nil {
		_ = json.Unmarshal(*req.Params, &p)
	}
	switch req.Method {
	case "initialize":
		caps := map[string]any{"textDocumentSync": 1}
		if f.pull {
			caps["diagnosticProvider"] = map[string]any{"interFileDependencies": true, "workspaceDiagnostics": false}
		}
		_ = conn.Reply(ctx, req.ID, map[string]any{"capabilities": caps})
	case "textDocument/didOpen":
		f.mu.Lock()
		f.texts[p.TextDocument.URI] = p.TextDocument.Text
		f.mu.Unlock()
		if !f.pull || strings.Contains(p.TextDocument.Text, "FAILPULL") {
			_ = conn.Notify(ctx, "textDocument/publishDiagnostics", lspclient.PublishDiagnostics{URI: p.TextDocument.URI,
				Version: &p.TextDocument.Version, Diagnostics: errLines(p.TextDocument.Text, "")})
		}
	case "textDocument/didClose":
		f.mu.Lock()
		delete(f.texts, p.TextDocument.URI)
		f.mu.Unlock()
	case "textDocument/diagnostic":
		rep, rpcErr := f.report(p.TextDocument.URI, p.PreviousResultID)
		if rpcErr != nil {
			_ = conn.ReplyWithError(ctx, req.ID, rpcErr)
			return
		}
		_ = conn.Reply(ctx, req.ID, rep)
	case "shutdown":
		_ = conn.Reply(ctx, req.ID, nil)
	case "exit":
		os.Exit(0)
	default:
		if !req.Notif {
			_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: req.Method})
		}
	}
}

// report answers a pull for uri.
func (f *fakeServer) report(uri, previous string) (*lspclient.DocumentDiagnosticReport, *jsonrpc2.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	text, open := f.texts[uri]
	if !open {
		text = readURI(uri)
	}
	switch {
	case strings.Contains(text, "BUSY") && !f.busied[uri]:
		f.busied[uri] = true
		data := json.RawMessage(`{"retriggerRequest":true}`)
		return nil, &jsonrpc2.Error{Code: -32802, Message: "busy", Data: &data}
	case strings.Contains(text, "FAILPULL"):
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: "cannot diagnose"}
	case strings.Contains(text, "SAYUNCHANGED") && !f.busied[uri]:
		f.busied[uri] = true
		return &lspclient.DocumentDiagnosticReport{DiagnosticReport: lspclient.DiagnosticReport{Kind: lspclient.ReportUnchanged, ResultID: "stale"}}, nil
	}
	out := &lspclient.DocumentDiagnosticReport{DiagnosticReport: f.full(text, previous)}
	for _, line := range strings.Split(text, "\n") {
		if name, ok := strings.CutPrefix(line, "RELATED "); ok {
			related := lspclient.FileURI(filepath.Join(filepath.Dir(uriPath(uri)), name))
			if out.RelatedDocuments == nil {
				out.RelatedDocuments = map[string]lspclient.DiagnosticReport{}
			}
			out.RelatedDocuments[related] = f.full(readURI(related), "")
		}
	}
	return out, nil
}

// full is the report of text: unchanged when previous is its result ID,
// else a new numbered one. f.mu is held.
func (f *fakeServer) full(text, previous string) lspclient.DiagnosticReport {
	var lines []string
	for _, d := range errLines(text, "") {
		lines = append(lines, d.Message)
	}
	id := fmt.Sprintf("%q", lines)
	if previous == id {
		return lspclient.DiagnosticReport{Kind: lspclient.ReportUnchanged, ResultID: id}
	}
	f.reports++
	return lspclient.DiagnosticReport{Kind: lspclient.ReportFull, ResultID: id,
		Items: errLines(text, fmt.Sprintf(" [report %d]", f.reports))}
}

// errLines are the diagnostics of text: its lines with ERR, suffixed.
func errLines(text, suffix string) []lspclient.Diagnostic {
	out := []lspclient.Diagnostic{}
	for i, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "ERR") {
			out = append(out, lspclient.Diagnostic{Range: lspclient.Range{Start: lspclient.Position{Line: uint32(i)}},
				Severity: lspclient.SeverityError, Source: "fake", Message: line + suffix})
		}
	}
	return out
}

// readURI is the text of a file URI on disk; "" when unreadable.
func readURI(uri string) string {
	data, _ := os.ReadFile(uriPath(uri))
	return string(data)
}

// uriPath is a file URI's path.
func uriPath(uri string) string {
	p, _ := lspclient.FilePath(uri)
	return p
}
