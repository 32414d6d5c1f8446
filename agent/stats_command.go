package agent

import (
	"fmt"
	"strings"
	"time"
)

// statsText renders /stats: the session's figures as plain text that
// reads well in a chat.
func (s commands) statsText() string { return StatsText(s.Stats()) }

// StatsText renders figures as /stats shows them.
func StatsText(st Stats) string {
	var b strings.Builder
	b.WriteString("Session stats\n\n")
	fmt.Fprintf(&b, "Model requests: %d (%s)\n", st.Requests, plural(st.Errors, "error", "errors"))
	fmt.Fprintf(&b, "Tokens: %s\n", tokensLine(st.Tokens, st.CacheHitRatio))
	fmt.Fprintf(&b, "Time: %s in the model, %s in tools\n", seconds(st.ModelTimeMs), seconds(st.ToolTimeMs))
	fmt.Fprintf(&b, "Tool calls: %d (%d succeeded, %d failed; %s success)\n", st.ToolCalls, st.ToolSuccess, st.ToolFailed, percent(st.SuccessRate, st.ToolCalls))
	d := st.Decisions
	fmt.Fprintf(&b, "Decisions: allowed %d by policy or rule, %d by mode, %d by the user, %d by a hook; %d rejected by the user, %d denied by policy, %d blocked by a hook\n",
		d.Policy, d.Mode, d.User, d.Hook, d.Rejected, d.Denied, d.Blocked)
	if len(st.Models) > 0 {
		b.WriteString("\nPer model:\n")
	}
	for _, m := range st.Models {
		fmt.Fprintf(&b, "- %s: %s, %s; %s; %s\n", m.Name, plural(m.Requests, "request", "requests"),
			plural(m.Errors, "error", "errors"), tokensLine(m.Tokens, m.CacheHitRatio), seconds(m.TimeMs))
	}
	if len(st.Tools) == 0 {
		b.WriteString("\nNo tool calls yet.\n")
		return b.String()
	}
	b.WriteString("\nPer tool:\n")
	for _, t := range st.Tools {
		fmt.Fprintf(&b, "- %s: %s, %d succeeded, %d failed (%s success); %s\n", t.Name, plural(t.Calls, "call", "calls"),
			t.Success, t.Failed, percent(t.SuccessRate, t.Calls), seconds(t.TimeMs))
	}
	return b.String()
}

// tokensLine is token counts by type with the cache hit ratio.
func tokensLine(t TokenStats, hit float64) string {
	return fmt.Sprintf("%d prompt, %d output, %d cached (%s cache hits), %d thoughts, %d total",
		t.Prompt, t.Output, t.Cached, percent(hit, t.Prompt), t.Thoughts, t.Total)
}

// plural is "1 error" or "2 errors".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// percent is a 0..1 ratio as a percentage, "n/a" when there was nothing
// to divide.
func percent(r float64, of int) string {
	if of == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", r*100)
}

// seconds is a duration in milliseconds, rounded for reading.
func seconds(msec int64) string {
	return (time.Duration(msec) * time.Millisecond).Round(100 * time.Millisecond).String()
}
