package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"companion/agent"
	"companion/agent/hooks"
	"companion/tools/mcp"
)

// initRequest is the SDK's initialize request.
type initRequest struct {
	Hooks              json.RawMessage `json:"hooks"`
	SDKMCPServers      json.RawMessage `json:"sdkMcpServers"`
	MCPServers         json.RawMessage `json:"mcpServers"`
	Agents             json.RawMessage `json:"agents"`
	SystemPrompt       string          `json:"systemPrompt"`
	AppendSystemPrompt string          `json:"appendSystemPrompt"`
}

// initialize starts the session with what the SDK's first request asks
// for, answers it, then writes the init line. A bad request is answered
// with an error and the session starts with the settings alone.
func (sr *streamRun) initialize(ctx context.Context, id string, raw json.RawMessage) error {
	ex, err := sr.extras(raw)
	if err != nil {
		sr.ctl.reply(id, nil, err)
		return sr.open(ctx, extras{})
	}
	if err := sr.open(ctx, ex); err != nil {
		sr.ctl.reply(id, nil, err)
		return err
	}
	rs, a := sr.rs, sr.rs.agent
	sr.ctl.reply(id, map[string]any{
		"commands": commandList(a), "model": a.ModelName(), "models": a.Models(),
		"permission_mode": sdkMode(a.Mode()), "session_id": rs.id, "companion_version": sr.o.Version,
		"output_style": "default", "agents": rs.agents,
		"capabilities": map[string]bool{"can_use_tool": true, "hook_callback": true, "mcp_message": true,
			"interrupt": true, "set_model": true, "set_permission_mode": true, "mcp_server_status": true,
			"supported_commands": true, "get_context_usage": true},
	}, nil)
	return nil
}

// extras reads the initialize request into what the session is built with.
func (sr *streamRun) extras(raw json.RawMessage) (extras, error) {
	var r initRequest
	if err := json.Unmarshal(raw, &r); err != nil {
		return extras{}, fmt.Errorf("bad initialize request: %w", err)
	}
	ex := extras{systemPrompt: r.SystemPrompt, appendPrompt: r.AppendSystemPrompt}
	var err error
	if ex.hooks, err = sr.sdkHooks(r.Hooks); err != nil {
		return extras{}, err
	}
	if ex.agents, err = sdkAgents(r.Agents); err != nil {
		return extras{}, err
	}
	if len(r.MCPServers) > 0 && string(r.MCPServers) != "null" {
		servers, err := mcp.ParseServers(r.MCPServers)
		if err != nil {
			return extras{}, fmt.Errorf("initialize: mcpServers: %w", err)
		}
		ex.mcp = append(ex.mcp, servers...)
	}
	names, err := sdkServerNames(r.SDKMCPServers)
	if err != nil {
		return extras{}, err
	}
	for _, name := range names {
		relay := &sdkRelay{ctl: sr.ctl, name: name}
		sr.relays[name] = relay
		ex.mcp = append(ex.mcp, mcp.ServerConfig{Name: name, Relay: relay})
	}
	return ex, nil
}

// sdkServerNames reads sdkMcpServers: a map name → {type: "sdk"} or a list
// of names or of {name} objects.
func sdkServerNames(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var byName map[string]json.RawMessage
	if json.Unmarshal(raw, &byName) == nil {
		names := make([]string, 0, len(byName))
		for n := range byName {
			names = append(names, n)
		}
		sort.Strings(names)
		return names, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, errors.New("initialize: sdkMcpServers must be an object or a list")
	}
	var names []string
	for _, item := range list {
		var name string
		var obj struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(item, &name) != nil && (json.Unmarshal(item, &obj) != nil || obj.Name == "") {
			return nil, errors.New("initialize: each sdkMcpServers entry needs a name")
		}
		if name == "" {
			name = obj.Name
		}
		names = append(names, name)
	}
	return names, nil
}

// sdkAgent is a subagent as SDKs describe one.
type sdkAgent struct {
	Name         string   `json:"name"`
	Description  string   `json:"description"`
	Prompt       string   `json:"prompt"`
	SystemPrompt string   `json:"systemPrompt"`
	Tools        []string `json:"tools"`
	Model        string   `json:"model"`
	MaxTurns     int      `json:"maxTurns"`
}

// sdkAgents reads agents: a list, or a map name → definition.
func sdkAgents(raw json.RawMessage) ([]agent.AgentDef, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var list []sdkAgent
	if err := json.Unmarshal(raw, &list); err != nil {
		var byName map[string]sdkAgent
		if json.Unmarshal(raw, &byName) != nil {
			return nil, errors.New("initialize: agents must be a list or an object of agent definitions")
		}
		for name, a := range byName {
			a.Name = name
			list = append(list, a)
		}
		sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	}
	defs := make([]agent.AgentDef, 0, len(list))
	for _, a := range list {
		prompt := a.Prompt
		if prompt == "" {
			prompt = a.SystemPrompt
		}
		if a.Name == "" || a.Description == "" || prompt == "" {
			return nil, fmt.Errorf("initialize: agent %q needs a name, a description and a prompt", a.Name)
		}
		defs = append(defs, agent.AgentDef{Name: a.Name, Description: a.Description, Prompt: prompt,
			Tools: a.Tools, Model: a.Model, MaxTurns: a.MaxTurns, Path: "sdk"})
	}
	return defs, nil
}

// hookRegistration is one SDK hook: callbacks for an event and matcher.
type hookRegistration struct {
	Event      string   `json:"event"`
	CallbackID string   `json:"callback_id"`
	Matcher    string   `json:"matcher"`
	IDs        []string `json:"hookCallbackIds"`
	Timeout    float64  `json:"timeout"`
}

// sdkHooks reads hooks, in the Claude Agent SDK's shape (event →
// [{matcher, hookCallbackIds, timeout}]) or as a list of {event,
// callback_id, matcher}, into hooks that call the SDK back.
func (sr *streamRun) sdkHooks(raw json.RawMessage) (hooks.Config, error) {
	cfg := hooks.Config{Hooks: map[string][]hooks.Hook{}}
	if len(raw) == 0 || string(raw) == "null" {
		return cfg, nil
	}
	var regs []hookRegistration
	var byEvent map[string][]hookRegistration
	if json.Unmarshal(raw, &byEvent) == nil {
		keys := make([]string, 0, len(byEvent))
		for k := range byEvent {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, ev := range keys {
			for _, r := range byEvent[ev] {
				r.Event = ev
				regs = append(regs, r)
			}
		}
	} else if err := json.Unmarshal(raw, &regs); err != nil {
		return cfg, errors.New("initialize: hooks must map events to matchers, or be a list of {event, callback_id}")
	}
	for _, r := range regs {
		if err := sr.addHook(&cfg, r); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// addHook adds one registration's callbacks to cfg.
func (sr *streamRun) addHook(cfg *hooks.Config, r hookRegistration) error {
	event, ok := hooks.EventName(r.Event)
	if !ok {
		return fmt.Errorf("initialize: unknown hook event %q", r.Event)
	}
	ids := r.IDs
	if r.CallbackID != "" {
		ids = append(ids, r.CallbackID)
	}
	if len(ids) == 0 {
		return fmt.Errorf("initialize: a %s hook has no callback id", r.Event)
	}
	timeout := sr.o.ControlTimeout
	if r.Timeout > 0 {
		timeout = time.Duration(r.Timeout * float64(time.Second))
	}
	for _, id := range ids {
		cfg.Hooks[event] = append(cfg.Hooks[event], hooks.Hook{Name: "sdk:" + id, Matcher: r.Matcher,
			Timeout: timeout, Call: sr.hookCall(id)})
	}
	return nil
}

// hookCall asks the SDK to run one of its hooks.
func (sr *streamRun) hookCall(id string) func(ctx context.Context, input []byte) ([]byte, error) {
	return func(ctx context.Context, input []byte) ([]byte, error) {
		var in struct {
			ToolUseID *string `json:"tool_use_id"`
		}
		json.Unmarshal(input, &in)
		return sr.ctl.request(ctx, "hook_callback", map[string]any{"callback_id": id,
			"input": json.RawMessage(input), "tool_use_id": in.ToolUseID})
	}
}
