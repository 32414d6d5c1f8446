package mcpclient_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestCallCancelled: a call whose context ends returns the context's
// error at once, and the server's handler is cancelled too (stdio:
// notifications/cancelled; HTTP: the request's POST ends), so that nothing
// keeps running for an answer nobody waits for.
func TestCallCancelled(t *testing.T) {
	for _, tt := range transports {
		if tt.name == "sse" {
			continue // the answer is not tied to the POST; mcp-go's SSE server keeps the handler running
		}
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer()
			started, ended := make(chan struct{}, 1), make(chan struct{}, 1)
			srv.AddTool(mcp.NewTool("slow"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				started <- struct{}{}
				<-ctx.Done()
				ended <- struct{}{}
				return mcp.NewToolResultText("late"), nil
			})
			s := connect(t, tt.start(t, srv))
			defer s.c.Close()
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				<-started
				cancel()
			}()
			_, err := s.c.CallTool(ctx, "slow", nil)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("CallTool = %v, want context.Canceled", err)
			}
			select {
			case <-ended:
			case <-time.After(wait):
				t.Fatal("the server's handler was not cancelled")
			}
			if res, err := s.c.CallTool(ctxT(t), "echo", map[string]any{"text": "after"}); err != nil || firstText(res) != "echo: after" {
				t.Errorf("CallTool after a cancelled one = %+v, %v", res, err)
			}
		})
	}
}
