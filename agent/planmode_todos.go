package agent

import (
	"regexp"
	"strings"

	"companion/tools"
)

// planItem matches one markdown list item at any indent: "- step",
// "* step", "+ step", "1. step", "2) step", with an optional task box
// "[ ]" or "[x]".
var planItem = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+(?:\[([ xX])\]\s+)?(.+?)\s*$`)

// planTodos turns the list items of a plan in markdown into todo
// entries, in order: checked boxes are completed, the rest pending.
// Lines inside fenced code blocks are skipped.
func planTodos(plan string) []tools.PlanEntry {
	var out []tools.PlanEntry
	fenced := false
	for line := range strings.Lines(plan) {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		m := planItem.FindStringSubmatch(line)
		if fenced || m == nil {
			continue
		}
		status := "pending"
		if strings.EqualFold(m[1], "x") {
			status = "completed"
		}
		out = append(out, tools.PlanEntry{Content: m[2], Priority: "medium", Status: status})
	}
	return out
}
