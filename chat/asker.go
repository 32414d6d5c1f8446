package chat

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"companion/agent"
	"companion/tools"
)

// asker asks the person at the terminal about tool calls: the question,
// the agent's options numbered, and y / a / n for the usual ones.
type asker struct {
	out   *printer
	lines <-chan string
	// flush drops what was typed but not yet read (the terminal's input
	// queue); nil when the input is no terminal.
	flush func()
}

// Ask shows q and reads answers until one names an option. Ctrl-C (the
// turn's context ending) and end of input cancel the question. Lines typed
// before the question appeared are dropped, never taken as its answer:
// a "y" meant for something else must not allow a command unseen.
func (a *asker) Ask(ctx context.Context, q agent.Question) (agent.Answer, error) {
	keys := optionKeys(q.Options)
	if !a.dropTypedAhead() {
		return agent.Answer{Cancelled: true}, nil
	}
	a.out.notice(questionText(q, keys))
	for {
		a.out.printf("answer [%s]: ", keyHint(keys))
		select {
		case <-ctx.Done():
			return agent.Answer{Cancelled: true}, nil
		case line, ok := <-a.lines:
			a.out.typed()
			if !ok {
				return agent.Answer{Cancelled: true}, nil
			}
			if i := pick(line, keys, len(q.Options)); i >= 0 {
				return agent.Answer{OptionID: q.Options[i].ID}, nil
			}
			a.out.notice(fmt.Sprintf("Answer with %s or an option's number.", keyHint(keys)))
		}
	}
}

// dropTypedAhead discards the lines typed before a question: the one the
// reader holds and the terminal's queue. It reports false at end of input.
func (a *asker) dropTypedAhead() bool {
	if a.flush != nil {
		a.flush()
	}
	for {
		select {
		case _, ok := <-a.lines:
			if !ok {
				return false
			}
		default:
			return true
		}
	}
}

// optionKeys gives the first option of each usual kind its letter: y
// (allow once), a (allow always), n (reject once). keys[i] is option i's
// letter, or "".
func optionKeys(opts []agent.Option) []string {
	letters := map[agent.OptionKind]string{agent.AllowOnce: "y", agent.AllowAlways: "a", agent.RejectOnce: "n"}
	keys := make([]string, len(opts))
	for i, o := range opts {
		if l, ok := letters[o.Kind]; ok {
			keys[i] = l
			delete(letters, o.Kind)
		}
	}
	return keys
}

// keyHint lists the letters in use, as "y/a/n".
func keyHint(keys []string) string {
	var used []string
	for _, k := range keys {
		if k != "" {
			used = append(used, k)
		}
	}
	return strings.Join(used, "/")
}

// pick is the option an answer names: its letter (or yes, no, always),
// or its number; -1 when none.
func pick(line string, keys []string, n int) int {
	s := strings.ToLower(strings.TrimSpace(line))
	switch s {
	case "yes":
		s = "y"
	case "no":
		s = "n"
	case "always":
		s = "a"
	}
	if s == "" {
		return -1
	}
	for i, k := range keys {
		if k == s {
			return i
		}
	}
	if i, err := strconv.Atoi(s); err == nil && i >= 1 && i <= n {
		return i - 1
	}
	return -1
}

// questionText is the question as shown: what the call does, then the
// options with their numbers and letters.
func questionText(q agent.Question, keys []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "? Allow %s?", q.Title)
	if c := q.Confirm; c != nil {
		switch c.Type {
		case tools.ConfirmExec:
			fmt.Fprintf(&b, "\n    $ %s", c.Command)
		case tools.ConfirmEdit:
			fmt.Fprintf(&b, "\n    edit %s", c.Path)
			for _, d := range c.More {
				fmt.Fprintf(&b, "\n    edit %s", d.Path)
			}
		case tools.ConfirmMCP:
			fmt.Fprintf(&b, "\n    %s from MCP server %s", c.Tool, c.Server)
		case tools.ConfirmInfo:
			// What a fetch, a skill or a server's sampling request would
			// do: the person answers having read it.
			for _, line := range strings.Split(strings.TrimSpace(c.Prompt), "\n") {
				fmt.Fprintf(&b, "\n    %s", line)
			}
		}
	}
	for i, o := range q.Options {
		key := ""
		if keys[i] != "" {
			key = " [" + keys[i] + "]"
		}
		fmt.Fprintf(&b, "\n  %d) %s%s", i+1, o.Label, key)
	}
	return b.String()
}
