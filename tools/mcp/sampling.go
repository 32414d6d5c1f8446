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

// userRejected is the error code MCP's examples use for a sampling
// request the user rejected.
const userRejected = -1

// samplingHandler answers sampling/createMessage for one server.
func samplingHandler(server string, sm Sampler) mcpclient.RequestHandler {
	return func(ctx context.Context, params json.RawMessage) (any, error) {
		var p mcpgo.CreateMessageParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, &mcpclient.Error{Code: mcpgo.INVALID_PARAMS, Message: "invalid sampling params: " + err.Error()}
		}
		if len(p.Tools) > 0 {
			return nil, &mcpclient.Error{Code: mcpgo.INVALID_PARAMS, Message: "tools in sampling requests are not supported"}
		}
		req, err := samplingRequest(server, p, params)
		if err != nil {
			return nil, &mcpclient.Error{Code: mcpgo.INVALID_PARAMS, Message: err.Error()}
		}
		res, err := sm.Sample(ctx, req)
		if errors.Is(err, ErrSamplingRefused) {
			return nil, &mcpclient.Error{Code: userRejected, Message: err.Error()}
		}
		if err != nil {
			return nil, err
		}
		out := &mcpgo.CreateMessageResult{Model: res.Model, StopReason: res.StopReason}
		out.Role, out.Content = mcpgo.RoleAssistant, mcpgo.NewTextContent(res.Text)
		return out, nil
	}
}

// samplingRequest converts the wire params (raw: to tell an absent
// temperature from 0).
func samplingRequest(server string, p mcpgo.CreateMessageParams, raw json.RawMessage) (SamplingRequest, error) {
	if len(p.Messages) == 0 {
		return SamplingRequest{}, errors.New("a sampling request needs messages")
	}
	if p.MaxTokens <= 0 {
		return SamplingRequest{}, errors.New("a sampling request needs a positive maxTokens")
	}
	req := SamplingRequest{Server: server, SystemPrompt: p.SystemPrompt, MaxTokens: p.MaxTokens, StopSequences: p.StopSequences}
	var has struct {
		Temperature *float64 `json:"temperature"`
	}
	if json.Unmarshal(raw, &has) == nil {
		req.Temperature = has.Temperature
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

// samplingText is the text of a message's content: one block or a list;
// what is not text is named, not passed on.
func samplingText(content any) string {
	blocks, ok := content.([]any)
	if !ok {
		blocks = []any{content}
	}
	var parts []string
	for _, b := range blocks {
		m, _ := b.(map[string]any)
		switch t, _ := m["type"].(string); t {
		case "text":
			s, _ := m["text"].(string)
			parts = append(parts, s)
		default:
			parts = append(parts, fmt.Sprintf("[%s content not shown]", t))
		}
	}
	return strings.Join(parts, "\n")
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
