package sdktest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Request is a control request companion sent to the SDK.
type Request struct {
	// ID is its request_id.
	ID string
	// Subtype is request.subtype.
	Subtype string
	// Body is the whole `request` object.
	Body json.RawMessage
}

// Decode unmarshals the request object into v.
func (r Request) Decode(v any) error { return json.Unmarshal(r.Body, v) }

// Requests lists the control requests companion sent with subtype (all
// when subtype is empty), in order.
func (s *Session) Requests(subtype string) []Request {
	var out []Request
	for _, m := range s.Messages() {
		if m.Type != "control_request" {
			continue
		}
		var in struct {
			RequestID string          `json:"request_id"`
			Request   json.RawMessage `json:"request"`
		}
		var sub struct {
			Subtype string `json:"subtype"`
		}
		json.Unmarshal(m.Raw, &in)
		json.Unmarshal(in.Request, &sub)
		if subtype == "" || sub.Subtype == subtype {
			out = append(out, Request{ID: in.RequestID, Subtype: sub.Subtype, Body: in.Request})
		}
	}
	return out
}

// Cancels lists the request ids of the control_cancel_request lines
// companion sent.
func (s *Session) Cancels() []string {
	var out []string
	for _, m := range s.Messages() {
		if m.Type == "control_cancel_request" {
			var c struct {
				RequestID string `json:"request_id"`
			}
			json.Unmarshal(m.Raw, &c)
			out = append(out, c.RequestID)
		}
	}
	return out
}

// requestInto sends a control request and decodes its response into v.
func requestInto[T any](ctx context.Context, s *Session, subtype string, fields map[string]any) (T, error) {
	var v T
	raw, err := s.Request(ctx, subtype, fields)
	if err != nil {
		return v, err
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, fmt.Errorf("%s response %s: %w", subtype, clip(raw), err)
	}
	return v, nil
}

// ModelChange is set_model's answer.
type ModelChange struct {
	Model         string `json:"model"`
	PreviousModel string `json:"previous_model"`
}

// SetModel sends set_model.
func (s *Session) SetModel(ctx context.Context, model any) (ModelChange, error) {
	return requestInto[ModelChange](ctx, s, "set_model", map[string]any{"model": model})
}

// SetPermissionMode sends set_permission_mode and returns the mode
// companion reports.
func (s *Session) SetPermissionMode(ctx context.Context, mode any) (string, error) {
	v, err := requestInto[struct {
		Mode string `json:"mode"`
	}](ctx, s, "set_permission_mode", map[string]any{"mode": mode})
	return v.Mode, err
}

// Interrupt sends interrupt; it returns once the running turn has stopped.
func (s *Session) Interrupt(ctx context.Context) error {
	_, err := s.Request(ctx, "interrupt", nil)
	return err
}

// SupportedCommands sends supported_commands.
func (s *Session) SupportedCommands(ctx context.Context) ([]Command, error) {
	v, err := requestInto[struct {
		Commands []Command `json:"commands"`
	}](ctx, s, "supported_commands", nil)
	return v.Commands, err
}

// MCPServerStatus sends mcp_server_status.
func (s *Session) MCPServerStatus(ctx context.Context) ([]ServerStatus, error) {
	v, err := requestInto[struct {
		MCPServers []ServerStatus `json:"mcpServers"`
	}](ctx, s, "mcp_server_status", nil)
	return v.MCPServers, err
}

// ContextUsage is get_context_usage's answer.
type ContextUsage struct {
	Used    int     `json:"used"`
	Size    int     `json:"size"`
	Percent float64 `json:"percent"`
}

// ContextUsage sends get_context_usage.
func (s *Session) ContextUsage(ctx context.Context) (ContextUsage, error) {
	return requestInto[ContextUsage](ctx, s, "get_context_usage", nil)
}

// NotifyMCP sends mcp_message: a JSON-RPC notification from the SDK-hosted
// server name to companion.
func (s *Session) NotifyMCP(ctx context.Context, name string, message any) error {
	_, err := s.Request(ctx, "mcp_message", map[string]any{"server_name": name, "message": message})
	return err
}

// CanUseToolRequests decodes the can_use_tool requests companion sent.
func (s *Session) CanUseToolRequests() []CanUseToolRequest {
	return decodeRequests(s, "can_use_tool", func(c *CanUseToolRequest, id string) { c.RequestID = id })
}

// HookCallbacks decodes the hook_callback requests companion sent.
func (s *Session) HookCallbacks() []HookInput {
	return decodeRequests(s, "hook_callback", func(h *HookInput, id string) { h.RequestID = id })
}

// decodeRequests decodes the requests of one subtype companion sent,
// giving each its request id.
func decodeRequests[T any](s *Session, subtype string, setID func(*T, string)) []T {
	var out []T
	for _, r := range s.Requests(subtype) {
		var v T
		r.Decode(&v)
		setID(&v, r.ID)
		out = append(out, v)
	}
	return out
}

// MCPMethods lists the JSON-RPC methods companion sent to the SDK-hosted
// server name through mcp_message.
func (s *Session) MCPMethods(name string) []string {
	var out []string
	for _, r := range s.Requests("mcp_message") {
		var v struct {
			ServerName string `json:"server_name"`
			Message    struct {
				Method string `json:"method"`
			} `json:"message"`
		}
		r.Decode(&v)
		if v.ServerName == name {
			out = append(out, v.Message.Method)
		}
	}
	return out
}

// SettledMCPServers asks mcp_server_status until no server is pending and
// returns the statuses by name.
func (s *Session) SettledMCPServers(ctx context.Context) (map[string]ServerStatus, error) {
	for {
		list, err := s.MCPServerStatus(ctx)
		if err != nil {
			return nil, err
		}
		out := map[string]ServerStatus{}
		pending := false
		for _, st := range list {
			out[st.Name] = st
			pending = pending || st.Status == "pending"
		}
		if !pending {
			return out, nil
		}
		select {
		case <-ctx.Done():
			return out, fmt.Errorf("MCP servers still pending: %+v: %w", list, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}
