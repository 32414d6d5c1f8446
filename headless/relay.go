package headless

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
)

// sdkRelay carries an SDK-hosted MCP server's messages over mcp_message
// control requests; it is the server's mcp.Relay.
type sdkRelay struct {
	ctl  *control
	name string

	mu     sync.Mutex
	onRecv func(json.RawMessage)
}

// Send sends one JSON-RPC message to the server and returns its response
// (nil for a notification).
func (r *sdkRelay) Send(ctx context.Context, message json.RawMessage) (json.RawMessage, error) {
	fields := map[string]any{"server_name": r.name, "message": message}
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	json.Unmarshal(message, &probe)
	if len(probe.ID) == 0 || string(probe.ID) == "null" {
		r.ctl.post("mcp_message", fields) // a notification: nothing comes back
		return nil, nil
	}
	raw, err := r.ctl.request(ctx, "mcp_message", fields)
	if err != nil {
		return nil, err
	}
	var resp struct {
		MCPResponse json.RawMessage `json:"mcp_response"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil || len(resp.MCPResponse) == 0 {
		return nil, errors.New(`the SDK's mcp_message answer has no "mcp_response"`)
	}
	return resp.MCPResponse, nil
}

// OnMessage sets where the server's own messages go.
func (r *sdkRelay) OnMessage(f func(json.RawMessage)) {
	r.mu.Lock()
	r.onRecv = f
	r.mu.Unlock()
}

// received passes on a message the server sent on its own.
func (r *sdkRelay) received(message json.RawMessage) {
	r.mu.Lock()
	f := r.onRecv
	r.mu.Unlock()
	if f != nil {
		f(message)
	}
}
