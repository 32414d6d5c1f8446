package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"companion/agent"
)

// handler works on one control request from the SDK.
type handler func(ctx context.Context, req json.RawMessage) (any, error)

// handlers are the control requests the SDK may send after the first line.
func (sr *streamRun) handlers() map[string]handler {
	return map[string]handler{
		"initialize": func(context.Context, json.RawMessage) (any, error) {
			return nil, errors.New("initialize must be the first message, and may come only once")
		},
		"interrupt":           sr.onInterrupt,
		"set_model":           sr.onSetModel,
		"supported_commands":  sr.onSupportedCommands,
		"set_permission_mode": sr.onSetPermissionMode,
		"mcp_server_status":   sr.onMCPStatus,
		"mcp_message":         sr.onMCPMessage,
		"get_context_usage":   sr.onContextUsage,
		"can_use_tool":        notForCompanion,
		"hook_callback":       notForCompanion,
	}
}

func notForCompanion(context.Context, json.RawMessage) (any, error) {
	return nil, errors.New("this request goes from companion to the SDK, not the other way")
}

// decode reads a request's fields strictly enough to give a clear error.
func decode(req json.RawMessage, v any) error {
	if err := json.Unmarshal(req, v); err != nil {
		return fmt.Errorf("bad request fields: %w", err)
	}
	return nil
}

func (sr *streamRun) onInterrupt(ctx context.Context, _ json.RawMessage) (any, error) {
	return nil, sr.interrupt(ctx)
}

func (sr *streamRun) onSetModel(_ context.Context, req json.RawMessage) (any, error) {
	var r struct {
		Model *string `json:"model"`
	}
	if err := decode(req, &r); err != nil {
		return nil, err
	}
	if r.Model == nil {
		return nil, errors.New(`set_model needs "model"`)
	}
	prev, err := sr.rs.agent.TrySetModel(*r.Model)
	if err != nil {
		return nil, err
	}
	sr.rep.system("model_changed", map[string]any{"model": *r.Model, "previous_model": prev, "reason": "set_model"})
	return map[string]any{"model": *r.Model, "previous_model": prev}, nil
}

// commandList is the live slash-command list in the SDK's shape.
func commandList(a *agent.Session) []map[string]string {
	out := []map[string]string{}
	for _, c := range a.Commands() {
		out = append(out, map[string]string{"name": c.Name, "description": c.Description, "argumentHint": c.Hint})
	}
	return out
}

func (sr *streamRun) onSupportedCommands(context.Context, json.RawMessage) (any, error) {
	return map[string]any{"commands": commandList(sr.rs.agent)}, nil
}

func (sr *streamRun) onSetPermissionMode(_ context.Context, req json.RawMessage) (any, error) {
	var r struct {
		Mode *string `json:"mode"`
	}
	if err := decode(req, &r); err != nil {
		return nil, err
	}
	if r.Mode == nil {
		return nil, errors.New(`set_permission_mode needs "mode"`)
	}
	mode, err := agentMode(*r.Mode)
	if err != nil {
		return nil, err
	}
	if err := sr.rs.agent.SetMode(mode); err != nil {
		return nil, err
	}
	sr.rep.system("permission_mode_changed", map[string]any{"permission_mode": sdkMode(mode)})
	return map[string]any{"mode": sdkMode(mode)}, nil
}

func (sr *streamRun) onMCPStatus(context.Context, json.RawMessage) (any, error) {
	return map[string]any{"mcpServers": statuses(sr.rs.mcp)}, nil
}

// onMCPMessage takes a message an SDK-hosted server sends on its own.
func (sr *streamRun) onMCPMessage(_ context.Context, req json.RawMessage) (any, error) {
	var r struct {
		ServerName string          `json:"server_name"`
		Message    json.RawMessage `json:"message"`
	}
	if err := decode(req, &r); err != nil {
		return nil, err
	}
	relay, ok := sr.relays[r.ServerName]
	if !ok {
		return nil, fmt.Errorf("no SDK MCP server named %q", r.ServerName)
	}
	if len(r.Message) == 0 || r.Message[0] != '{' {
		return nil, errors.New(`mcp_message needs "message": a JSON-RPC object`)
	}
	relay.received(r.Message)
	return nil, nil
}

func (sr *streamRun) onContextUsage(context.Context, json.RawMessage) (any, error) {
	used, size := sr.rs.agent.ContextUse()
	pct := 0.0
	if size > 0 {
		pct = float64(used) * 100 / float64(size)
	}
	return map[string]any{"used": used, "size": size, "percent": pct}, nil
}
