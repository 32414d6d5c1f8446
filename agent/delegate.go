package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"companion/agent/model"
	"companion/tools"
)

// MaxAgentDepth bounds how deeply subagents may delegate in turn.
const MaxAgentDepth = 2

// delegateTool lets the model hand a task to a subagent: a child session
// with the agent's prompt, a narrower tool set and the parent's policy
// (never more permissive). Its progress streams as this call's content;
// its final answer is the result.
type delegateTool struct {
	parent *Session
	agents []AgentDef
}

func (d *delegateTool) Name() string     { return "delegate_to_agent" }
func (d *delegateTool) Kind() tools.Kind { return tools.KindThink }

func (d *delegateTool) Description() string {
	var b strings.Builder
	b.WriteString("Hand a self-contained task to a specialised subagent and get its final answer back. The subagent starts with no knowledge of this conversation: put everything it needs in the task. " +
		"Not for what one or two of your own calls can do. Check what it reports before relying on it.\nAgents:\n")
	for _, a := range d.agents {
		fmt.Fprintf(&b, "- %s: %s\n", a.Name, a.Description)
	}
	return b.String()
}

func (d *delegateTool) Schema() json.RawMessage {
	names, _ := json.Marshal(d.agentNames())
	return json.RawMessage(`{"type":"object","properties":{"agent":{"type":"string","enum":` + string(names) +
		`,"description":"The agent to delegate to."},"task":{"type":"string","description":"The complete task, with all context the agent needs, e.g. \"Review the diff of internal/store/ for concurrency bugs; the change adds a cache in store.go.\""}},"required":["agent","task"]}`)
}

func (d *delegateTool) agentNames() []string {
	var names []string
	for _, a := range d.agents {
		names = append(names, a.Name)
	}
	return names
}

func (d *delegateTool) Prepare(_ *tools.Env, args json.RawMessage) (tools.Invocation, error) {
	var p struct{ Agent, Task string }
	if err := json.Unmarshal(args, &p); err != nil {
		return nil, fmt.Errorf("arguments must be an object with agent and task: %w", err)
	}
	i := slices.IndexFunc(d.agents, func(a AgentDef) bool { return a.Name == p.Agent })
	if i < 0 {
		return nil, fmt.Errorf("%w %q; agents: %s", errNoAgent, p.Agent, strings.Join(d.agentNames(), ", "))
	}
	if strings.TrimSpace(p.Task) == "" {
		return nil, fmt.Errorf("missing required parameter \"task\"")
	}
	return &delegateCall{d: d, def: d.agents[i], task: p.Task}, nil
}

// delegateCall is one delegation.
type delegateCall struct {
	d    *delegateTool
	def  AgentDef
	task string
}

func (c *delegateCall) Title() string                                             { return "Delegate to " + c.def.Name }
func (c *delegateCall) Locations() []tools.Location                               { return nil }
func (c *delegateCall) Confirmation(context.Context) (*tools.Confirmation, error) { return nil, nil }

// Execute runs the subagent to its end, streaming its progress.
func (c *delegateCall) Execute(ctx context.Context, out tools.Output) (*tools.Result, error) {
	if c.def.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.def.Timeout)
		defer cancel()
	}
	sink := &childSink{out: out}
	child, err := c.child(ctx, sink)
	if err != nil {
		return nil, err
	}
	defer child.Close()
	reason, err := child.Prompt(ctx, []model.Part{{Text: c.task}})
	answer := strings.TrimSpace(sink.answer())
	switch {
	case err != nil:
		return tools.ErrorResult(fmt.Sprintf("Subagent %s failed: %v", c.def.Name, err)), nil
	case ctx.Err() != nil && c.d.parentCancelled(ctx):
		return nil, ctx.Err()
	case reason != EndTurn:
		return &tools.Result{Text: fmt.Sprintf("Subagent %s stopped early (%s). Its last words:\n%s", c.def.Name, reason, answer), IsError: reason != MaxTokens}, nil
	}
	return &tools.Result{Text: answer, Display: sink.transcript()}, nil
}

// child builds the subagent's session.
func (c *delegateCall) child(ctx context.Context, sink Sink) (*Session, error) {
	p := c.d.parent
	reg := tools.NewRegistry()
	for _, t := range p.builtinTools() {
		if _, own := t.(*planTool); own { // the parent's mode is not the subagent's to change
			continue
		}
		if c.def.allows(t.Name()) && (t.Name() != "delegate_to_agent" || p.opts.Depth+1 < MaxAgentDepth) {
			reg.Add(t)
		}
	}
	var servers MCPServers
	if p.opts.MCP != nil {
		servers = subagentMCP{MCPServers: p.opts.MCP, def: c.def}
	}
	modelName := c.def.Model
	if modelName == "" {
		modelName = p.ModelName()
	}
	opts := Options{Telemetry: p.opts.Telemetry, ID: p.opts.ID + "/" + c.def.Name, Roots: p.opts.Roots, Model: p.opts.Model, ModelName: modelName,
		Models: p.Models(), Tools: reg, MCP: servers, Files: p.opts.Files, Terminals: p.opts.Terminals, Sink: sink,
		Log: p.opts.Log.With("subagent", c.def.Name), MaxRequests: c.def.MaxTurns, Policy: p.policy,
		Asker: &childAsker{parent: p.opts.Asker, agent: c.def.Name}, StateDir: p.opts.StateDir,
		SystemPrompt: c.def.Prompt, Depth: p.opts.Depth + 1, Now: p.opts.Now, Memory: p.opts.Memory,
		Prompt: p.opts.Prompt.forSubagent(c.def), Commands: p.opts.Commands}
	return NewSession(opts)
}

// allows reports whether the subagent may use the tool name: every tool
// when its definition lists none.
func (a AgentDef) allows(name string) bool {
	return len(a.Tools) == 0 || slices.Contains(a.Tools, name)
}

// subagentMCP is the parent session's MCP servers as a subagent sees
// them: only the tools its definition allows. Closing the subagent leaves
// the servers to the parent.
type subagentMCP struct {
	MCPServers
	def AgentDef
}

// Tools lists the servers' tools the subagent may use.
func (m subagentMCP) Tools() []tools.Tool {
	var out []tools.Tool
	for _, t := range m.MCPServers.Tools() {
		if m.def.allows(t.Name()) {
			out = append(out, t)
		}
	}
	return out
}

// Close does nothing: the parent owns the servers.
func (subagentMCP) Close() error { return nil }

// parentCancelled reports whether the parent turn itself was cancelled
// (rather than the subagent's own timeout).
func (d *delegateTool) parentCancelled(ctx context.Context) bool {
	return context.Cause(ctx) == context.Canceled
}

// childSink turns a subagent's events into the delegating call's content.
type childSink struct {
	out tools.Output

	// mu guards last and all.
	mu   sync.Mutex
	last strings.Builder // the text since the last tool call: the answer
	all  strings.Builder // everything shown, for the final content
}

// show writes text to the call's live content and the transcript.
func (c *childSink) show(text string) {
	c.mu.Lock()
	c.all.WriteString(text)
	c.mu.Unlock()
	c.out.Write(text)
}

func (c *childSink) transcript() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.all.String()
}

func (c *childSink) Emit(_ context.Context, ev Event) {
	switch ev := ev.(type) {
	case MessageChunk:
		c.mu.Lock()
		c.last.WriteString(ev.Text)
		c.mu.Unlock()
		c.show(ev.Text)
	case ToolCallStarted:
		c.mu.Lock()
		c.last.Reset()
		c.mu.Unlock()
		c.show("\n\n▸ " + ev.Title + "\n")
	case ToolCallUpdated:
		switch ev.Status {
		case ToolCompleted:
			c.show("  ✓ done\n\n")
		case ToolFailed:
			c.show("  ✗ failed\n\n")
		}
	}
}

func (c *childSink) answer() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last.String()
}

// childAsker asks the user about a subagent's calls under the delegating
// call's card, naming the subagent.
type childAsker struct {
	parent Asker
	agent  string
}

func (a *childAsker) Ask(ctx context.Context, q Question) (Answer, error) {
	if a.parent == nil {
		return Answer{Cancelled: true}, nil
	}
	q.Title = a.agent + ": " + q.Title
	if id, ok := ctx.Value(callIDKey{}).(string); ok {
		q.CallID = id
	}
	return a.parent.Ask(ctx, q)
}

// callIDKey carries the running tool call's id, so a subagent's questions
// attach to the delegating call.
type callIDKey struct{}
