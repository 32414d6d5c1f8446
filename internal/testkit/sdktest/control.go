package sdktest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// ControlError is an error control_response.
type ControlError struct {
	RequestID string
	Message   string
}

func (e *ControlError) Error() string {
	return fmt.Sprintf("control request %s failed: %s", e.RequestID, e.Message)
}

// controlResponse is the inner `response` of a control_response line.
type controlResponse struct {
	Subtype   string          `json:"subtype"`
	RequestID string          `json:"request_id"`
	Response  json.RawMessage `json:"response"`
	Error     string          `json:"error"`
	ok        bool            // set when the envelope decoded
}

// Pending is a control request waiting for its response.
type Pending struct {
	// ID is the request_id.
	ID string
	s  *Session
	ch chan controlResponse
}

// Wait waits for the response: its `response` object on success, a
// *ControlError on an error response, ErrExited if companion exited first.
func (p *Pending) Wait(ctx context.Context) (json.RawMessage, error) {
	r, err := p.next(ctx)
	switch {
	case err != nil:
		return nil, err
	case !r.ok:
		return nil, fmt.Errorf("request %s: malformed control_response", p.ID)
	case r.Subtype == "error":
		return nil, &ControlError{RequestID: p.ID, Message: r.Error}
	case r.Subtype != "success":
		return nil, fmt.Errorf("request %s: response subtype %q", p.ID, r.Subtype)
	}
	return r.Response, nil
}

// next receives the response, or says why none will come.
func (p *Pending) next(ctx context.Context) (controlResponse, error) {
	exited := fmt.Errorf("request %s: %w", p.ID, ErrExited)
	select {
	case r, ok := <-p.ch:
		if !ok {
			return r, exited
		}
		return r, nil
	case <-p.s.done:
		select {
		case r, ok := <-p.ch: // delivered just before the exit
			if ok {
				return r, nil
			}
		default:
		}
		return controlResponse{}, exited
	case <-ctx.Done():
		return controlResponse{}, fmt.Errorf("waiting for the answer to %s: %w", p.ID, ctx.Err())
	}
}

// Expect registers a waiter for the response to a request id the test
// writes itself with Write.
func (s *Session) Expect(requestID string) *Pending {
	ch := make(chan controlResponse, 1)
	s.mu.Lock()
	s.pending[requestID] = ch
	s.mu.Unlock()
	return &Pending{ID: requestID, s: s, ch: ch}
}

// StartRequest sends a control request with a fresh request_id and returns it
// pending. fields are merged into `request` beside subtype.
func (s *Session) StartRequest(subtype string, fields map[string]any) (*Pending, error) {
	s.mu.Lock()
	s.nextID++
	id := "sdk_req_" + strconv.Itoa(s.nextID)
	s.mu.Unlock()
	p := s.Expect(id)
	req := map[string]any{"subtype": subtype}
	for k, v := range fields {
		req[k] = v
	}
	if err := s.send(map[string]any{"type": "control_request", "request_id": id, "request": req}); err != nil {
		s.mu.Lock()
		delete(s.pending, id)
		s.mu.Unlock()
		return nil, err
	}
	return p, nil
}

// Request sends a control request and waits for its response.
func (s *Session) Request(ctx context.Context, subtype string, fields map[string]any) (json.RawMessage, error) {
	p, err := s.StartRequest(subtype, fields)
	if err != nil {
		return nil, err
	}
	return p.Wait(ctx)
}

// CancelRequest sends control_cancel_request for id.
func (s *Session) CancelRequest(id string) error {
	return s.send(map[string]any{"type": "control_cancel_request", "request_id": id})
}

// deliver hands a control_response to the request waiting for it.
func (s *Session) deliver(m Message) {
	var env struct {
		Response *controlResponse `json:"response"`
	}
	if err := json.Unmarshal(m.Raw, &env); err != nil || env.Response == nil || env.Response.RequestID == "" {
		s.problem("malformed control_response: %s", clip(m.Raw))
		return
	}
	r := *env.Response
	r.ok = true
	s.mu.Lock()
	ch := s.pending[r.RequestID]
	delete(s.pending, r.RequestID)
	s.mu.Unlock()
	if ch == nil {
		s.problem("control_response to no pending request (or a second one): %s", clip(m.Raw))
		return
	}
	ch <- r
}

// Initialize sends initialize. When req names no sdkMcpServers, the
// servers of Options.MCPServers are announced.
func (s *Session) Initialize(ctx context.Context, req InitializeRequest) (InitializeResponse, error) {
	if req.SDKMCPServers == nil && len(s.opts.MCPServers) > 0 {
		servers := map[string]any{}
		for name := range s.opts.MCPServers {
			servers[name] = map[string]any{"type": "sdk", "name": name}
		}
		req.SDKMCPServers = servers
	}
	fields := map[string]any{}
	b, err := json.Marshal(req)
	if err != nil {
		return InitializeResponse{}, err
	}
	json.Unmarshal(b, &fields)
	raw, err := s.Request(ctx, "initialize", fields)
	if err != nil {
		return InitializeResponse{}, err
	}
	var resp InitializeResponse
	if err := json.Unmarshal(raw, &resp); err != nil {
		return resp, fmt.Errorf("initialize response: %w", err)
	}
	resp.Raw = raw
	return resp, nil
}

// InitializeRequest is the initialize control request.
type InitializeRequest struct {
	// Hooks is either the Claude Agent SDK map (event → matchers with
	// hookCallbackIds) or a list of {event, callback_id, matcher}.
	Hooks any `json:"hooks,omitempty"`
	// SDKMCPServers is a map name → {"type":"sdk","name":name} or a list
	// of names.
	SDKMCPServers any `json:"sdkMcpServers,omitempty"`
	// MCPServers are servers companion starts itself.
	MCPServers map[string]any `json:"mcpServers,omitempty"`
	// Agents is a list or a map name → agent.
	Agents             any    `json:"agents,omitempty"`
	SystemPrompt       string `json:"systemPrompt,omitempty"`
	AppendSystemPrompt string `json:"appendSystemPrompt,omitempty"`
}

// HookMatcher is one entry of the map form of InitializeRequest.Hooks.
type HookMatcher struct {
	Matcher         string   `json:"matcher,omitempty"`
	HookCallbackIDs []string `json:"hookCallbackIds"`
	Timeout         int      `json:"timeout,omitempty"`
}

// Command is a slash command in initialize and supported_commands.
type Command struct {
	Name         string `json:"name"`
	Description  string `json:"description"`
	ArgumentHint string `json:"argumentHint"`
}

// InitializeResponse is initialize's answer.
type InitializeResponse struct {
	Commands         []Command       `json:"commands"`
	Capabilities     map[string]any  `json:"capabilities"`
	Model            string          `json:"model"`
	Models           json.RawMessage `json:"models"`
	PermissionMode   string          `json:"permission_mode"`
	SessionID        string          `json:"session_id"`
	CompanionVersion string          `json:"companion_version"`
	OutputStyle      json.RawMessage `json:"output_style"`
	// Raw is the whole response object.
	Raw json.RawMessage `json:"-"`
}

// ErrorMessage is the message of an error control_response; ok is false
// when err is not one.
func ErrorMessage(err error) (msg string, ok bool) {
	var ce *ControlError
	if errors.As(err, &ce) {
		return ce.Message, true
	}
	return "", false
}
