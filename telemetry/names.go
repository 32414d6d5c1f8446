package telemetry

// Span, metric and log record names, and the attribute keys they carry.
const (
	SpanTurn        = "companion.turn"
	SpanModel       = "companion.model.request"
	SpanTool        = "companion.tool.call"
	SpanHook        = "companion.hook"
	SpanCompression = "companion.compression"
	SpanMCP         = "companion.mcp.call"

	MetricSessions    = "companion.session.count"
	MetricTurns       = "companion.turn.count"
	MetricRequests    = "companion.api.request.count"
	MetricErrors      = "companion.api.error.count"
	MetricModelTime   = "companion.api.request.latency"
	MetricTokens      = "companion.token.usage"
	MetricToolCalls   = "companion.tool.call.count"
	MetricToolTime    = "companion.tool.call.latency"
	MetricLoops       = "companion.loop_detection.count"
	MetricCompression = "companion.compression.count"
	MetricPermission  = "companion.permission.answer.count"
	MetricFallbacks   = "companion.model.fallback.count"

	LogSessionStart = "companion.session.start"
	LogUserPrompt   = "companion.user_prompt"
	LogFallback     = "companion.model.fallback"
	LogMCPState     = "companion.mcp.server.state"
)

// Entry is one thing the package records: a span, a metric or a log
// record, with the attributes it may carry.
type Entry struct {
	// Signal is "span", "counter", "histogram" or "log".
	Signal string
	Name   string
	Attrs  []string
}

// Catalog lists everything the package records; docs/telemetry.md has
// the same table.
func Catalog() []Entry {
	return []Entry{
		{"span", SpanTurn, []string{"session.id", "subagent.depth", "prompt.length", "prompt", "stop_reason", "error"}},
		{"span", SpanModel, []string{"gen_ai.request.model", "tokens.input", "tokens.output", "tokens.cached", "tokens.thought", "latency_ms", "retries", "finish_reason", "error"}},
		{"span", SpanTool, []string{"tool.name", "tool.kind", "tool.call_id", "tool.args", "decision", "decided_by", "duration_ms", "success", "output_bytes"}},
		{"span", SpanHook, []string{"hook.event", "error"}},
		{"span", SpanCompression, []string{"error"}},
		{"span", SpanMCP, []string{"tool.name", "error"}},
		{"counter", MetricSessions, nil},
		{"counter", MetricTurns, []string{"stop_reason"}},
		{"counter", MetricRequests, []string{"model", "status"}},
		{"counter", MetricErrors, []string{"model", "status"}},
		{"histogram", MetricModelTime, []string{"model"}},
		{"counter", MetricTokens, []string{"model", "type"}},
		{"counter", MetricToolCalls, []string{"tool.name", "decision", "success"}},
		{"histogram", MetricToolTime, []string{"tool.name"}},
		{"counter", MetricLoops, []string{"what"}},
		{"counter", MetricCompression, []string{"status"}},
		{"counter", MetricPermission, []string{"tool.name", "decision", "decided_by"}},
		{"counter", MetricFallbacks, []string{"from", "to"}},
		{"log", LogSessionStart, []string{"model", "provider", "approval_mode", "sandbox", "mcp_servers", "telemetry.target", "telemetry.log_prompts"}},
		{"log", LogUserPrompt, []string{"prompt.length", "prompt"}},
		{"log", LogFallback, []string{"from", "to", "reason"}},
		{"log", LogMCPState, []string{"server", "state", "error"}},
	}
}
