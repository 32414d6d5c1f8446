package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"companion/agent/model"
)

// Loop detection thresholds.
const (
	// repeatedCallLimit is how many identical tool calls in a row count as
	// a loop.
	repeatedCallLimit = 5
	// repeatedLineLimit is how often one line of streamed text may appear
	// in one response before it counts as a loop.
	repeatedLineLimit = 10
	// minLoopLine ignores short lines (blank lines, braces, bullets).
	minLoopLine = 8
)

// loopDetector watches one prompt for a model that repeats itself. The
// first loop it finds earns the model a nudge; the second ends the prompt.
type loopDetector struct {
	lastCall    string
	callRepeats int
	lines       map[string]int
	partial     string
	nudged      bool
}

// startResponse resets the per-response text counts.
func (d *loopDetector) startResponse() {
	d.lines, d.partial = map[string]int{}, ""
}

// text feeds streamed text and reports whether a line has repeated too
// often in this response.
func (d *loopDetector) text(s string) bool {
	d.partial += s
	complete := strings.Split(d.partial, "\n")
	d.partial = complete[len(complete)-1]
	for _, line := range complete[:len(complete)-1] {
		line = strings.TrimSpace(line)
		if len(line) < minLoopLine {
			continue
		}
		d.lines[line]++
		if d.lines[line] >= repeatedLineLimit {
			return true
		}
	}
	return false
}

// calls feeds a response's function calls and reports whether the same
// call (name and arguments) has now come repeatedCallLimit times in a row.
func (d *loopDetector) calls(fcs []model.FunctionCall) bool {
	for _, fc := range fcs {
		small, _ := compactArgs(fc.Args, maxResentArg)
		args, _ := json.Marshal(small)
		key := fc.Name + "\x00" + string(args)
		if key == d.lastCall {
			d.callRepeats++
		} else {
			d.lastCall, d.callRepeats = key, 1
		}
		if d.callRepeats >= repeatedCallLimit {
			return true
		}
	}
	return false
}

// loopNudge is what the model is told the first time it loops.
func loopNudge(what string) string {
	return fmt.Sprintf("(companion: you appear to be stuck in a loop: %s. Stop repeating yourself. "+
		"Step back, reconsider the approach, and either try something different or explain to the user what is blocking you.)", what)
}
