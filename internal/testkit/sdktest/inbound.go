package sdktest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// CanUseToolRequest is companion's can_use_tool request.
type CanUseToolRequest struct {
	RequestID             string                 `json:"-"`
	ToolName              string                 `json:"tool_name"`
	ToolUseID             string                 `json:"tool_use_id"`
	Input                 map[string]any         `json:"input"`
	Title                 string                 `json:"title"`
	Kind                  string                 `json:"kind"`
	PermissionSuggestions []PermissionSuggestion `json:"permission_suggestions"`
	BlockedPath           string                 `json:"blocked_path"`
	Confirmation          map[string]any         `json:"confirmation"`
}

// PermissionSuggestion is an option companion would show the user.
type PermissionSuggestion struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Kind  string `json:"kind"`
}

// PermissionResult is the SDK's answer to can_use_tool.
type PermissionResult struct {
	Behavior           string         `json:"behavior"`
	UpdatedInput       map[string]any `json:"updatedInput,omitempty"`
	UpdatedPermissions []any          `json:"updatedPermissions,omitempty"`
	Message            string         `json:"message,omitempty"`
	Interrupt          bool           `json:"interrupt,omitempty"`
}

// CanUseToolFunc decides a tool call; an error is sent as an error
// response. ctx ends when companion cancels the request or exits.
type CanUseToolFunc func(ctx context.Context, req CanUseToolRequest) (PermissionResult, error)

// HookInput is companion's hook_callback request.
type HookInput struct {
	RequestID  string         `json:"-"`
	CallbackID string         `json:"callback_id"`
	Input      map[string]any `json:"input"`
	ToolUseID  string         `json:"tool_use_id"`
}

// HookFunc answers a hook_callback with a hook answer ({"decision":…}).
type HookFunc func(ctx context.Context, in HookInput) (map[string]any, error)

// inboundRequest is a control_request line from companion.
type inboundRequest struct {
	RequestID string          `json:"request_id"`
	Request   json.RawMessage `json:"request"`
}

// serve answers a control request from companion on its own goroutine.
func (s *Session) serve(m Message) {
	var in inboundRequest
	var sub struct {
		Subtype string `json:"subtype"`
	}
	if json.Unmarshal(m.Raw, &in) != nil || in.RequestID == "" || json.Unmarshal(in.Request, &sub) != nil {
		s.problem("malformed control_request from companion: %s", clip(m.Raw))
		if in.RequestID != "" {
			s.respond(in.RequestID, nil, errors.New("malformed control_request"))
		}
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	s.mu.Lock()
	s.inbound[in.RequestID] = cancel
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		resp, err := s.handle(ctx, sub.Subtype, in)
		s.mu.Lock()
		delete(s.inbound, in.RequestID)
		s.mu.Unlock()
		cancel()
		s.respond(in.RequestID, resp, err)
	}()
}

// handle runs the handler for one request from companion.
func (s *Session) handle(ctx context.Context, subtype string, in inboundRequest) (any, error) {
	switch subtype {
	case "can_use_tool":
		if s.opts.CanUseTool == nil {
			return nil, errNoHandler
		}
		var req CanUseToolRequest
		if err := json.Unmarshal(in.Request, &req); err != nil {
			return nil, fmt.Errorf("bad can_use_tool request: %w", err)
		}
		req.RequestID = in.RequestID
		return s.opts.CanUseTool(ctx, req)
	case "hook_callback":
		var hi HookInput
		if err := json.Unmarshal(in.Request, &hi); err != nil {
			return nil, fmt.Errorf("bad hook_callback request: %w", err)
		}
		hi.RequestID = in.RequestID
		h := s.opts.Hooks[hi.CallbackID]
		if h == nil {
			return nil, fmt.Errorf("no hook callback %q", hi.CallbackID)
		}
		return h(ctx, hi)
	case "mcp_message":
		return s.mcpMessage(ctx, in.Request)
	}
	return nil, fmt.Errorf("unknown subtype %q", subtype)
}

// mcpMessage passes a JSON-RPC message to an SDK-hosted server.
func (s *Session) mcpMessage(ctx context.Context, raw json.RawMessage) (any, error) {
	var req struct {
		ServerName string          `json:"server_name"`
		Message    json.RawMessage `json:"message"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, fmt.Errorf("bad mcp_message request: %w", err)
	}
	srv := s.opts.MCPServers[req.ServerName]
	if srv == nil {
		return nil, fmt.Errorf("no SDK MCP server %q", req.ServerName)
	}
	resp := srv.HandleMessage(ctx, req.Message)
	if resp == nil {
		return map[string]any{}, nil // a notification
	}
	return map[string]any{"mcp_response": resp}, nil
}

// respond writes the answer to a request from companion. A write error
// means companion is gone: nothing is left to tell.
func (s *Session) respond(id string, resp any, err error) {
	inner := map[string]any{"subtype": "success", "request_id": id}
	if err != nil {
		inner = map[string]any{"subtype": "error", "request_id": id, "error": err.Error()}
	} else {
		if resp == nil {
			resp = map[string]any{}
		}
		inner["response"] = resp
	}
	s.send(map[string]any{"type": "control_response", "response": inner})
}

// cancelInbound cancels the handler of a request companion withdrew.
func (s *Session) cancelInbound(m Message) {
	var c struct {
		RequestID string `json:"request_id"`
	}
	json.Unmarshal(m.Raw, &c)
	s.mu.Lock()
	cancel := s.inbound[c.RequestID]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}
