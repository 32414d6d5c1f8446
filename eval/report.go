package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// Report is the whole run: the settings it ran with, each task's result
// and the totals.
type Report struct {
	Model        string   `json:"model,omitempty"`
	Provider     string   `json:"provider,omitempty"`
	ApprovalMode string   `json:"approval_mode"`
	Scripted     bool     `json:"scripted"`
	Tasks        []Result `json:"tasks"`
	Total        Total    `json:"total"`
}

// Total sums the tasks' results.
type Total struct {
	Tasks    int     `json:"tasks"`
	Passed   int     `json:"passed"`
	PassRate float64 `json:"pass_rate"`
	// Errors counts tasks whose agent failed or timed out.
	Errors       int   `json:"errors"`
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
	Tokens       int64 `json:"tokens"`
	Requests     int   `json:"requests"`
	ToolCalls    int   `json:"tool_calls"`
	// DurationMS sums the agent's time on each task; WallMS is the whole
	// run's, which is shorter with --parallel.
	DurationMS int64 `json:"duration_ms"`
	WallMS     int64 `json:"wall_ms"`
}

// newReport adds up results.
func newReport(o options, results []Result, wall time.Duration) Report {
	rep := Report{Model: o.model, Provider: o.provider, ApprovalMode: o.approvalMode, Scripted: o.scripts != "",
		Tasks: results, Total: Total{Tasks: len(results), WallMS: wall.Milliseconds()}}
	t := &rep.Total
	for _, r := range results {
		if r.Passed {
			t.Passed++
		}
		if r.Status == "error" || r.Status == "timeout" {
			t.Errors++
		}
		t.InputTokens += r.InputTokens
		t.OutputTokens += r.OutputTokens
		t.Tokens += r.Tokens
		t.Requests += r.Requests
		t.ToolCalls += r.ToolCalls
		t.DurationMS += r.DurationMS
	}
	if t.Tasks > 0 {
		t.PassRate = float64(t.Passed) / float64(t.Tasks)
	}
	return rep
}

// writeJSON prints the report as indented JSON.
func writeJSON(w io.Writer, rep Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// writeTable prints one row per task, a total row, and the reasons of
// the tasks that did not pass.
func writeTable(w io.Writer, rep Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "task\tlanguages\tstatus\trequests\ttool calls\ttokens in\ttokens out\ttime")
	for _, r := range rep.Tasks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\n", r.Name, strings.Join(r.Languages, ","), r.Status,
			r.Requests, r.ToolCalls, r.InputTokens, r.OutputTokens, seconds(r.DurationMS))
	}
	t := rep.Total
	fmt.Fprintf(tw, "total\t\t%d/%d pass\t%d\t%d\t%d\t%d\t%s\n", t.Passed, t.Tasks,
		t.Requests, t.ToolCalls, t.InputTokens, t.OutputTokens, seconds(t.DurationMS))
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\npass rate %.0f%% (%d of %d), %d errors or timeouts, %d tokens, %d model requests, %s agent time, %s wall\n",
		100*t.PassRate, t.Passed, t.Tasks, t.Errors, t.Tokens, t.Requests, seconds(t.DurationMS), seconds(t.WallMS))
	for _, r := range rep.Tasks {
		if r.Status == "pass" {
			continue
		}
		why := r.Error
		if why == "" {
			why = lastLineOf(r.CheckOutput)
		}
		fmt.Fprintf(w, "%s: %s: %s\n", r.Name, r.Status, why)
	}
	return nil
}

func seconds(ms int64) string { return fmt.Sprintf("%.1fs", float64(ms)/1000) }

// lastLineOf is the last non-empty line of s.
func lastLineOf(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
