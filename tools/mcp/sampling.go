package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"companion/mcpclient"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// ErrSamplingRefused is a sampling request the user rejected or that the
// session may not run (no way to ask, a headless run without the setting).
var ErrSamplingRefused = errors.New("sampling request refused")

// SamplingMessage is one message of a sampling request, as text (images
// and audio are described, not passed on).
type SamplingMessage struct {
	// Role is "user" or "assistant".
	Role string
	Text string
}

// SamplingRequest is a server's sampling/createMessage: the conversation
// it wants the session's model to continue.
type SamplingRequest struct {
	// Server names the MCP server asking.
	Server       string
	Messages     []SamplingMessage
	SystemPrompt string
	// MaxTokens is the most tokens the answer may have (MCP requires it).
	MaxTokens int
	// Temperature is the sampling temperature the server asked for, nil
	// when it asked none.
	Temperature   *float64
	StopSequences []string
	// ModelHints are the model names the server would prefer, in order.
	ModelHints []string
}

// SamplingResult is the model's answer to a sampling request.
type SamplingResult struct {
	Text string
	// Model is the model that answered.
	Model string
	// StopReason is "endTurn", "maxTokens", "stopSequence" or another
	// word the model's finish maps to.
	StopReason string
}

// Sampler runs a server's sampling request on the session's model once
// the user (or the settings) allow it. An error wrapping
// ErrSamplingRefused tells the server the request was refused.
type Sampler interface {
	Sample(ctx context.Context, req SamplingRequest) (SamplingResult, error)
}

// samplingHandler answers sampling/createMessage for one server. A
// refusal reaches the server as an error whose message says so.
func samplingHandler(server string, sm Sampler) mcpclient.SamplingHandler {
	return func(ctx context.Context, cm mcpgo.CreateMessageRequest) (*mcpgo.CreateMessageResult, error) {
		p := cm.CreateMessageParams
		if len(p.Tools) > 0 {
			return nil, errors.New("tools in sampling requests are not supported")
		}
		req, err := samplingRequest(server, p)
		if err != nil {
			return nil, err
		}
		res, err := sm.Sample(ctx, req)
		if err != nil {
			return nil, err
		}
		out := &mcpgo.CreateMessageResult{Model: res.Model, StopReason: res.StopReason}
		out.Role, out.Content = mcpgo.RoleAssistant, mcpgo.NewTextContent(res.Text)
		return out, nil
	}
}

// samplingRequest converts the wire params. A temperature of 0 is no
// temperature: the params carry none then.
func samplingRequest(server string, p mcpgo.CreateMessageParams) (SamplingRequest, error) {
	if len(p.Messages) == 0 {
		return SamplingRequest{}, errors.New("a sampling request needs messages")
	}
	if p.MaxTokens <= 0 {
		return SamplingRequest{}, errors.New("a sampling request needs a positive maxTokens")
	}
	req := SamplingRequest{Server: server, SystemPrompt: p.SystemPrompt, MaxTokens: p.MaxTokens, StopSequences: p.StopSequences}
	if p.Temperature != 0 {
		t := p.Temperature
		req.Temperature = &t
	}
	if p.ModelPreferences != nil {
		for _, h := range p.ModelPreferences.Hints {
			req.ModelHints = append(req.ModelHints, h.Name)
		}
	}
	for i, m := range p.Messages {
		if m.Role != mcpgo.RoleUser && m.Role != mcpgo.RoleAssistant {
			return SamplingRequest{}, fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
		req.Messages = append(req.Messages, SamplingMessage{Role: string(m.Role), Text: samplingText(m.Content)})
	}
	return req, nil
}

// samplingText is the text of a message's content: one block or a list,
// typed or still generic JSON (as input requests of 2026-07-28 arrive);
// what is not text is named, not passed on.
func samplingText(content any) string {
	if parsed, err := mcpgo.ParseSamplingContent(content); err == nil {
		content = parsed
	}
	blocks, ok := content.([]mcpgo.Content)
	if !ok {
		c, _ := content.(mcpgo.Content)
		blocks = []mcpgo.Content{c}
	}
	var parts []string
	for _, b := range blocks {
		switch c := b.(type) {
		case mcpgo.TextContent:
			parts = append(parts, c.Text)
		case *mcpgo.TextContent:
			parts = append(parts, c.Text)
		default:
			parts = append(parts, fmt.Sprintf("[%s content not shown]", contentType(c)))
		}
	}
	return strings.Join(parts, "\n")
}

// contentType is the type a content block names on the wire.
func contentType(c mcpgo.Content) string {
	var head struct {
		Type string `json:"type"`
	}
	raw, _ := json.Marshal(c)
	if json.Unmarshal(raw, &head) != nil || head.Type == "" {
		return "unknown"
	}
	return head.Type
}

// Sampling policies a server's settings may give (ServerConfig.Sampling).
const (
	SamplingAsk   = "ask"
	SamplingAllow = "allow"
	SamplingDeny  = "deny"
)

// SamplingPolicy is the sampling policy of server name: SamplingAsk when
// the settings say none or name no such server.
func (m *Manager) SamplingPolicy(name string) string {
	if s, ok := m.byName[name]; ok && s.cfg.Sampling != "" {
		return s.cfg.Sampling
	}
	return SamplingAsk
}
