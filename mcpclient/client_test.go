package mcpclient_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"companion/mcpclient"
)

// wait bounds every wait of the tests (a safety limit, not a timing
// assertion).
const wait = 20 * time.Second

// session is a started and initialized client with what it saw.
type session struct {
	c        *mcpclient.Client
	notified chan string
	lost     chan error
	lostN    atomic.Int32
	asked    chan string
}

// connect starts a client over f's transport and initializes it.
func connect(t *testing.T, f fixture, opts ...mcpclient.Option) *session {
	t.Helper()
	s := &session{notified: make(chan string, 16), lost: make(chan error, 4), asked: make(chan string, 4)}
	s.c = mcpclient.New(f.tr, append([]mcpclient.Option{
		mcpclient.WithClientInfo(mcp.Implementation{Name: "test-client", Version: "1"}),
		mcpclient.WithLogger(testLog(t)),
		mcpclient.WithNotificationHandler(func(n mcp.JSONRPCNotification) {
			select {
			case s.notified <- n.Method:
			default:
			}
		}),
		mcpclient.WithConnectionLost(func(err error) {
			s.lostN.Add(1)
			s.lost <- err
		}),
		mcpclient.WithElicitation(func(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
			s.asked <- req.Params.Message
			res := &mcp.ElicitationResult{}
			res.Action = mcp.ElicitationResponseActionAccept
			res.Content = map[string]any{"name": "Ada"}
			return res, nil
		})}, opts...)...)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := s.c.Start(ctx); err != nil {
		t.Fatalf("Start: %v", err)
	}
	res, err := s.c.Initialize(ctx)
	if err != nil {
		t.Fatalf("Initialize: %v", err)
	}
	if res.ServerInfo.Name != "test" || res.Capabilities.Tools == nil {
		t.Fatalf("Initialize = %+v", res)
	}
	return s
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	t.Cleanup(cancel)
	return ctx
}

// TestTransports runs a session over each transport against mcp-go's
// server: paginated lists, calls, a prompt, a resource, a server error, an
// elicitation during a call, a list_changed notification, and Close
// leaving nothing behind.
func TestTransports(t *testing.T) {
	for _, tt := range transports {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.start(t, newServer())
			s := connect(t, f)
			ctx := ctxT(t)

			checkTools(ctx, t, s)
			checkPromptsAndResources(ctx, t, s)

			_, err := s.c.ReadResource(ctx, "test://nothing")
			var rpcErr *mcpclient.Error
			if !errors.As(err, &rpcErr) || errors.Is(err, mcpclient.ErrTransport) {
				t.Errorf("ReadResource(unknown) error = %v, want a server *Error", err)
			}

			if tt.elicit {
				checkElicitation(ctx, t, s)
			}

			if _, err := s.c.CallTool(ctx, "add_tool", nil); err != nil {
				t.Fatalf("CallTool(add_tool): %v", err)
			}
			waitNotification(t, s, string(mcp.MethodNotificationToolsListChanged))

			if err := s.c.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			if _, err := s.c.ListTools(ctx); !errors.Is(err, mcpclient.ErrClosed) {
				t.Errorf("ListTools after Close = %v, want ErrClosed", err)
			}
			if n := s.lostN.Load(); n != 0 {
				t.Errorf("connection lost reported %d times after Close, want 0", n)
			}
			checkNoGoroutines(t)
		})
	}
}

// checkTools lists the tools over several pages and calls one.
func checkTools(ctx context.Context, t *testing.T, s *session) {
	t.Helper()
	tools, err := s.c.ListTools(ctx)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	for _, want := range []string{"n0", "n4", "echo", "ask", "add_tool"} {
		if !slices.Contains(names, want) {
			t.Errorf("ListTools = %v (over pages of %d), missing %s", names, pageSize, want)
		}
	}
	if len(names) != toolCount+3 {
		t.Errorf("ListTools listed %d tools, want %d: %v", len(names), toolCount+3, names)
	}

	res, err := s.c.CallTool(ctx, "echo", map[string]any{"text": "hi"})
	if err != nil || res.IsError || firstText(res) != "echo: hi" {
		t.Errorf("CallTool(echo) = %+v, %v", res, err)
	}
}

// checkPromptsAndResources lists and gets a prompt, lists and reads a
// resource.
func checkPromptsAndResources(ctx context.Context, t *testing.T, s *session) {
	t.Helper()
	prompts, err := s.c.ListPrompts(ctx)
	if err != nil || len(prompts.Prompts) != 1 {
		t.Errorf("ListPrompts = %+v, %v", prompts, err)
	}
	p, err := s.c.GetPrompt(ctx, "greet", map[string]string{"name": "Bo"})
	if err != nil || len(p.Messages) != 1 {
		t.Fatalf("GetPrompt = %+v, %v", p, err)
	}
	if tc, ok := mcp.AsTextContent(p.Messages[0].Content); !ok || tc.Text != "hello Bo" {
		t.Errorf("GetPrompt message = %+v", p.Messages[0])
	}
	rs, err := s.c.ListResources(ctx)
	if err != nil || len(rs.Resources) != 1 {
		t.Errorf("ListResources = %+v, %v", rs, err)
	}
	rr, err := s.c.ReadResource(ctx, "test://note")
	if err != nil || len(rr.Contents) != 1 {
		t.Fatalf("ReadResource = %+v, %v", rr, err)
	}
	if tc, ok := mcp.AsTextResourceContents(rr.Contents[0]); !ok || tc.Text != "a note" {
		t.Errorf("ReadResource content = %#v", rr.Contents[0])
	}
}

// checkElicitation calls the ask tool, during which the server asks the
// client; the call completes with the client's answer.
func checkElicitation(ctx context.Context, t *testing.T, s *session) {
	t.Helper()
	res, err := s.c.CallTool(ctx, "ask", nil)
	if err != nil || firstText(res) != "accept Ada" {
		t.Errorf("CallTool(ask) = %+v, %v; want the elicitation answered", res, err)
	}
	select {
	case q := <-s.asked:
		if q != "Who are you?" {
			t.Errorf("elicitation message = %q", q)
		}
	default:
		t.Error("the elicitation handler was not called")
	}
}

// waitNotification waits for a notification of method.
func waitNotification(t *testing.T, s *session, method string) {
	t.Helper()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case m := <-s.notified:
			if m == method {
				return
			}
		case <-timer.C:
			t.Fatalf("no %s notification arrived", method)
		}
	}
}

// TestServerGoesAway: the connection-lost callback runs once, calls fail
// with a transport error, and Close still leaves nothing behind.
func TestServerGoesAway(t *testing.T) {
	for _, tt := range transports {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.start(t, newServer())
			s := connect(t, f)
			f.kill()
			select {
			case err := <-s.lost:
				if !errors.Is(err, mcpclient.ErrTransport) {
					t.Errorf("connection lost with %v, want a transport error", err)
				}
			case <-time.After(wait):
				t.Fatal("connection lost was not reported")
			}
			_, err := s.c.ListTools(ctxT(t))
			var rpcErr *mcpclient.Error
			if err == nil || errors.As(err, &rpcErr) {
				t.Errorf("ListTools after the server went = %v, want a transport error", err)
			}
			_ = s.c.Close()
			if n := s.lostN.Load(); n != 1 {
				t.Errorf("connection lost reported %d times, want 1", n)
			}
			checkNoGoroutines(t)
		})
	}
}

func firstText(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	for _, c := range res.Content {
		if tc, ok := mcp.AsTextContent(c); ok {
			return tc.Text
		}
	}
	return fmt.Sprintf("%v", res.Content)
}

// TestConcurrentCalls: answers reach their own callers when many calls are
// under way at once.
func TestConcurrentCalls(t *testing.T) {
	for _, tt := range transports {
		t.Run(tt.name, func(t *testing.T) {
			s := connect(t, tt.start(t, newServer()))
			defer s.c.Close()
			ctx := ctxT(t)
			errs := make(chan error, 20)
			for i := range cap(errs) {
				go func() {
					text := fmt.Sprintf("call %d", i)
					res, err := s.c.CallTool(ctx, "echo", map[string]any{"text": text})
					if err == nil && firstText(res) != "echo: "+text {
						err = fmt.Errorf("call %d got %q", i, firstText(res))
					}
					errs <- err
				}()
			}
			for range cap(errs) {
				if err := <-errs; err != nil {
					t.Error(err)
				}
			}
		})
	}
}
