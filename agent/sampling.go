package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"companion/agent/model"
	"companion/tools"
	"companion/tools/mcp"
)

// SamplingDecision is the user's answer to a server's sampling request.
type SamplingDecision int

// Sampling decisions.
const (
	// SamplingRejected: the user said no, cancelled, or could not be asked.
	SamplingRejected SamplingDecision = iota
	// SamplingOnce: allowed this time.
	SamplingOnce
	// SamplingAlways: allowed, and the server may sample for the rest of
	// the session without asking.
	SamplingAlways
)

// samplingTool names the card of a sampling request for front ends.
const samplingTool = "mcp_sampling"

// samplingOptions are the answers to a sampling card, in the words of the
// other permission cards.
func samplingOptions(server string) []Option {
	return []Option{
		{ProceedOnce, "Allow this time", AllowOnce},
		{ProceedAlwaysSrv, "Allow " + server + " to sample for this session", AllowAlways},
		{RejectOnceID, "Reject", RejectOnce},
	}
}

// AskSampling shows the user a card naming the server and the request
// (messages, system prompt, token limit) and returns the decision. With
// no way to ask, it returns SamplingRejected and an error.
func (s *Session) AskSampling(ctx context.Context, req mcp.SamplingRequest) (SamplingDecision, error) {
	if s.opts.Asker == nil {
		return SamplingRejected, fmt.Errorf("there is no way to ask the user")
	}
	id := fmt.Sprintf("sampling_%d", s.eng.callSeq.Add(1))
	input, _ := json.Marshal(req)
	title := "Sampling by MCP server " + req.Server
	conf := &tools.Confirmation{Type: tools.ConfirmInfo, Title: title, Server: req.Server, Prompt: samplingCard(req)}
	s.opts.Sink.Emit(ctx, ToolCallStarted{ID: id, Name: samplingTool, Title: title, Kind: tools.KindOther, Input: input, Confirm: conf})
	q := Question{CallID: id, Tool: samplingTool, Title: title, Kind: tools.KindOther, Input: input, Confirm: conf,
		Options: samplingOptions(req.Server)}
	ans, err := s.opts.Asker.Ask(ctx, q)
	decision := SamplingRejected
	switch {
	case err != nil, ans.Cancelled:
	case ans.OptionID == ProceedOnce:
		decision = SamplingOnce
	case ans.OptionID == ProceedAlwaysSrv, ans.OptionID == ProceedAlways:
		decision = SamplingAlways
	}
	done := ToolCallUpdated{ID: id, Status: ToolCompleted, Text: "Allowed: the model answers the server."}
	if decision == SamplingRejected {
		done = ToolCallUpdated{ID: id, Status: ToolFailed, Text: "Not allowed: the server was told no.", Refused: true, Outcome: OutcomeRejected}
		if ans.Cancelled || (err != nil && ctx.Err() != nil) {
			done.Outcome = OutcomeCancelled
		}
	}
	s.opts.Sink.Emit(context.WithoutCancel(ctx), done)
	return decision, err
}

// samplingCard is what the card shows of a request: the system prompt,
// each message and the limits.
func samplingCard(req mcp.SamplingRequest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "MCP server %s asks the model for a reply of at most %d tokens", req.Server, req.MaxTokens)
	if req.Temperature != nil {
		fmt.Fprintf(&b, " (temperature %g)", *req.Temperature)
	}
	b.WriteString(".\n")
	if req.SystemPrompt != "" {
		fmt.Fprintf(&b, "\nSystem prompt:\n%s\n", quoteBlock(req.SystemPrompt))
	}
	for _, m := range req.Messages {
		fmt.Fprintf(&b, "\n%s:\n%s\n", m.Role, quoteBlock(m.Text))
	}
	if len(req.StopSequences) > 0 {
		fmt.Fprintf(&b, "\nStops at: %q\n", req.StopSequences)
	}
	return b.String()
}

// quoteBlock shows text as a markdown quote.
func quoteBlock(text string) string {
	return "> " + strings.ReplaceAll(strings.TrimRight(text, "\n"), "\n", "\n> ")
}

// approxCharsPerToken turns a token limit into a length cap, a backstop
// for a provider that does not honour MaxOutputTokens.
const approxCharsPerToken = 4

// RunSampling runs an approved sampling request on the session's model,
// outside the turn loop and its history: the request's own system prompt
// and messages, no tools, its token limit and temperature. The answer
// stops at the first stop sequence, and is cut at about MaxTokens tokens
// should the provider run past them.
func (s *Session) RunSampling(ctx context.Context, req mcp.SamplingRequest) (mcp.SamplingResult, error) {
	name := s.ModelName()
	mreq := &model.Request{Model: name, System: req.SystemPrompt, Temperature: req.Temperature}
	if req.MaxTokens > 0 {
		mreq.MaxOutputTokens = &req.MaxTokens
	}
	for _, m := range req.Messages {
		role := model.RoleUser
		if m.Role == "assistant" {
			role = model.RoleModel
		}
		mreq.Contents = append(mreq.Contents, model.Content{Role: role, Parts: []model.Part{{Text: m.Text}}})
	}
	limit := req.MaxTokens * approxCharsPerToken
	var b strings.Builder
	stop := "endTurn"
	for chunk, err := range s.opts.Model.Stream(ctx, mreq) {
		if err != nil {
			return mcp.SamplingResult{}, fmt.Errorf("the model failed: %w", err)
		}
		for _, p := range chunk.Parts {
			if p.Text != "" && !p.Thought && p.FunctionCall == nil {
				b.WriteString(p.Text)
			}
		}
		if chunk.FinishReason == model.FinishMaxTokens {
			stop = "maxTokens"
		}
		if text, ok := cutAtStop(b.String(), req.StopSequences); ok {
			return mcp.SamplingResult{Text: text, Model: name, StopReason: "stopSequence"}, nil
		}
		if limit > 0 && b.Len() >= limit {
			return mcp.SamplingResult{Text: strings.ToValidUTF8(b.String()[:limit], ""), Model: name, StopReason: "maxTokens"}, nil
		}
	}
	return mcp.SamplingResult{Text: b.String(), Model: name, StopReason: stop}, nil
}

// cutAtStop cuts text before the first stop sequence it holds.
func cutAtStop(text string, stops []string) (string, bool) {
	at := -1
	for _, st := range stops {
		if i := strings.Index(text, st); st != "" && i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if at < 0 {
		return text, false
	}
	return text[:at], true
}
