package sdktest

import (
	"bufio"
	"fmt"
	"strings"
)

// ParseStream reads a whole stream-json output (of a finished run) into
// messages; it fails on the first line that is not one.
func ParseStream(stdout string) ([]Message, error) {
	var out []Message
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		m, err := ParseLine(sc.Bytes())
		if err != nil {
			return out, fmt.Errorf("stdout line %d is not a message (%w): %s", n, err, clip(sc.Bytes()))
		}
		out = append(out, m)
	}
	return out, sc.Err()
}

// FindBlocks lists the content blocks of type blockType in the messages of
// type msgType (assistant or user), in order.
func FindBlocks(msgs []Message, msgType, blockType string) []Block {
	var out []Block
	for _, m := range msgs {
		if m.Type != msgType {
			continue
		}
		for _, b := range m.Blocks() {
			if b.Type == blockType {
				out = append(out, b)
			}
		}
	}
	return out
}

// AssistantText joins the text blocks of the assistant messages.
func AssistantText(msgs []Message) string {
	var b strings.Builder
	for _, blk := range FindBlocks(msgs, "assistant", "text") {
		b.WriteString(blk.Text)
	}
	return b.String()
}

// Types lists "type/subtype" (or "type") of each message: for failure
// messages.
func Types(msgs []Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, strings.TrimSuffix(m.Type+"/"+m.Subtype, "/"))
	}
	return out
}

// ToolExchange finds the first tool_use of the assistant in msgs and the
// tool_result answering it; ok is false when either is missing.
func ToolExchange(msgs []Message) (use, result Block, ok bool) {
	uses := FindBlocks(msgs, "assistant", "tool_use")
	if len(uses) == 0 {
		return Block{}, Block{}, false
	}
	for _, r := range FindBlocks(msgs, "user", "tool_result") {
		if r.ToolUseID == uses[0].ID {
			return uses[0], r, true
		}
	}
	return uses[0], Block{}, false
}
