package mcpclient_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"companion/mcpclient"
)

// playScript plays the server side of a transcript over r and w and
// returns the first mismatch (nil when the client did as the script says).
func playScript(script string, r io.Reader, w io.Writer) error {
	in := bufio.NewScanner(r)
	var lastID json.RawMessage
	for n, line := range strings.Split(script, "\n") {
		switch {
		case strings.HasPrefix(line, "< "):
			out := strings.ReplaceAll(line[2:], "{{id}}", string(lastID))
			if _, err := io.WriteString(w, out+"\n"); err != nil {
				return fmt.Errorf("line %d: write: %w", n+1, err)
			}
		case strings.HasPrefix(line, "> "):
			if !in.Scan() {
				return fmt.Errorf("line %d: the client sent nothing more (%v)", n+1, in.Err())
			}
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Error  json.RawMessage `json:"error"`
				Result json.RawMessage `json:"result"`
			}
			if err := json.Unmarshal(in.Bytes(), &msg); err != nil {
				return fmt.Errorf("line %d: the client sent %q: %w", n+1, in.Text(), err)
			}
			if err := expect(line[2:], msg.ID, msg.Method, msg.Error, msg.Result); err != nil {
				return fmt.Errorf("line %d: %w (got %s)", n+1, err, in.Text())
			}
			if msg.Method != "" && msg.ID != nil {
				lastID = msg.ID
			}
		}
	}
	return nil
}

// expect checks one client message against a "> " line of the script.
func expect(want string, id json.RawMessage, method string, errMsg, result json.RawMessage) error {
	kind, arg, _ := strings.Cut(want, " ")
	switch kind {
	case "answer":
		if string(id) != arg || result == nil || method != "" {
			return fmt.Errorf("want the result for id %s", arg)
		}
	case "error":
		if string(id) != arg || errMsg == nil {
			return fmt.Errorf("want an error answer for id %s", arg)
		}
	default:
		if method != kind {
			return fmt.Errorf("want %s", kind)
		}
	}
	return nil
}

// TestMalformedServer: the client survives what a broken server sends
// (lines that are not JSON-RPC, answers to nothing, a batch, a request it
// has no handler for) and goes on working.
func TestMalformedServer(t *testing.T) {
	script, err := os.ReadFile("testdata/malformed.txt")
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	played := make(chan error, 1)
	go func() { played <- playScript(string(script), inR, outW) }()
	logs := make(chan string, 8)
	c := mcpclient.New(mcpclient.NewStdio(outR, inW), mcpclient.WithLogger(testLog(t)),
		mcpclient.WithNotificationHandler(func(n mcp.JSONRPCNotification) { logs <- n.Method }))
	ctx := ctxT(t)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if res, err := c.Initialize(ctx); err != nil || res.ServerInfo.Name != "script" {
		t.Fatalf("Initialize = %+v, %v", res, err)
	}
	tools, err := c.ListTools(ctx)
	if err != nil || len(tools.Tools) != 2 || tools.Tools[1].Name != "b" {
		t.Fatalf("ListTools = %+v, %v; want a and b over two pages", tools, err)
	}
	if m := <-logs; m != "notifications/message" {
		t.Errorf("notification = %q", m)
	}
	_, err = c.CallTool(ctx, "zzz", nil)
	var rpcErr *mcpclient.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32602 {
		t.Errorf("CallTool(zzz) error = %#v, want the server's error with its code", err)
	}
	if res, err := c.CallTool(ctx, "ok", nil); err != nil || firstText(res) != "done" {
		t.Errorf("CallTool(ok) = %+v, %v", res, err)
	}
	if err := <-played; err != nil {
		t.Error(err)
	}
	_ = c.Close()
	_ = outW.Close()
	checkNoGoroutines(t)
}
