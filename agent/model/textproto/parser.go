package textproto

import (
	"fmt"
	"strings"

	"companion/agent/model"
)

// blockKind says what an opener starts.
type blockKind int

const (
	// kindThink is reasoning: <think>...</think>, <thinking>...</thinking>.
	kindThink blockKind = iota
	// kindCallFence is ```tool_call ... ```.
	kindCallFence
	// kindJSONFence is ```json ... ```: a call when it holds one.
	kindJSONFence
	// kindCallTag is <tool_call>...</tool_call>.
	kindCallTag
)

// opener is a string that starts a think or call block.
type opener struct {
	tag    string
	closer string
	kind   blockKind
	// word means tag must be followed by a byte that cannot continue a
	// fence's language name, so ```jsonl opens nothing.
	word bool
}

// openers returns the openers the parser looks for; calls adds the call
// forms.
func openers(calls bool) []opener {
	ops := []opener{
		{tag: "<think>", closer: "</think>", kind: kindThink},
		{tag: "<thinking>", closer: "</thinking>", kind: kindThink},
	}
	if calls {
		ops = append(ops,
			opener{tag: "```tool_call", closer: "```", kind: kindCallFence, word: true},
			opener{tag: "```json", closer: "```", kind: kindJSONFence, word: true},
			opener{tag: "<tool_call>", closer: "</tool_call>", kind: kindCallTag},
		)
	}
	return ops
}

// mode is where the parser is in the output.
type mode int

const (
	modeText mode = iota
	modeThink
	modeBlock
)

// parser turns streamed text into text, thought and function call parts.
// Text is passed on as soon as it cannot be the start of an opener; thoughts
// as they come; a call block once it is closed. Each feed does work
// proportional to its input.
type parser struct {
	ops   []opener
	newID func() string

	// pend holds input not yet turned into parts: a possible partial
	// opener or closer.
	pend string
	mode mode
	// cur is the open block's opener in modeThink and modeBlock.
	cur opener
	// content is the open call block's text after its opener.
	content strings.Builder
	// scan follows JSON strings in content, to tell a closer from text
	// inside a string.
	scan jsonScan
	// trimLead drops the blank space that follows a think block or a call.
	trimLead bool
	// out collects the parts of the current feed or flush.
	out []model.Part
}

// newParser returns a parser; calls says whether call blocks are parsed.
func newParser(calls bool, newID func() string) *parser {
	return &parser{ops: openers(calls), newID: newID}
}

// feed takes the next piece of output and returns the parts it completes.
func (p *parser) feed(s string) []model.Part {
	p.out = nil
	p.pend += s
	for p.step() {
	}
	return p.out
}

// flush ends the output: held text is text, an open think block ends, an
// open call block is parsed as it stands (a stop sequence may have cut its
// closer off).
func (p *parser) flush() []model.Part {
	p.out = nil
	switch p.mode {
	case modeText:
		p.emitText(p.pend)
	case modeThink:
		p.emitThought(p.pend)
	case modeBlock:
		// In a block, pend holds at most the start of the closer.
		p.closeBlock(p.pend)
	}
	p.pend, p.mode = "", modeText
	return p.out
}

// step consumes what it can of pend and reports whether to go on.
func (p *parser) step() bool {
	switch p.mode {
	case modeThink:
		return p.stepThink()
	case modeBlock:
		return p.stepBlock()
	}
	i, op, partial := p.findOpener(p.pend)
	if i < 0 {
		p.emitText(p.pend)
		p.pend = ""
		return false
	}
	p.emitText(p.pend[:i])
	p.pend = p.pend[i:]
	if partial {
		return false
	}
	p.pend = p.pend[len(op.tag):]
	p.cur = op
	if op.kind == kindThink {
		p.mode = modeThink
		return true
	}
	p.mode = modeBlock
	p.content.Reset()
	p.scan = jsonScan{}
	return true
}

// findOpener returns the index of the first opener in s, or of a possible
// opener cut off by the end of s (partial), or -1.
func (p *parser) findOpener(s string) (int, opener, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != '`' && s[i] != '<' {
			continue
		}
		rest := s[i:]
		for _, op := range p.ops {
			switch {
			case strings.HasPrefix(rest, op.tag):
				if !op.word {
					return i, op, false
				}
				if len(rest) == len(op.tag) {
					return i, op, true
				}
				if !isWordByte(rest[len(op.tag)]) {
					return i, op, false
				}
			case strings.HasPrefix(op.tag, rest):
				return i, opener{}, true
			}
		}
	}
	return -1, opener{}, false
}

// stepThink passes a think block's text on as thoughts up to its closer.
func (p *parser) stepThink() bool {
	closer := p.cur.closer
	if i := strings.Index(p.pend, closer); i >= 0 {
		p.emitThought(p.pend[:i])
		p.pend = p.pend[i+len(closer):]
		p.mode, p.trimLead = modeText, true
		return true
	}
	keep := partialSuffix(p.pend, closer)
	p.emitThought(p.pend[:len(p.pend)-keep])
	p.pend = p.pend[len(p.pend)-keep:]
	return false
}

// stepBlock collects a call block's content up to its closer. The closer
// counts outside JSON strings, or at the start of a line (where a valid JSON
// string cannot be, and where a broken one must still end).
func (p *parser) stepBlock() bool {
	closer := p.cur.closer
	for i := 0; i < len(p.pend); i++ {
		if !p.scan.inString || p.scan.lineStart {
			rest := p.pend[i:]
			if strings.HasPrefix(rest, closer) {
				p.content.WriteString(p.pend[:i])
				p.pend = rest[len(closer):]
				p.closeBlock(closer)
				return true
			}
			if strings.HasPrefix(closer, rest) {
				p.content.WriteString(p.pend[:i])
				p.pend = rest
				return false
			}
		}
		p.scan.step(p.pend[i])
	}
	p.content.WriteString(p.pend)
	p.pend = ""
	return false
}

// closeBlock turns the finished call block into calls, or into text when
// it holds none: an ordinary ```json block as it was, a broken call with a
// note saying why it was not run, so the model sees its mistake. closer is
// the closer that ended the block: all of it, or what the output ended with.
func (p *parser) closeBlock(closer string) {
	p.mode = modeText
	content := p.content.String()
	p.content.Reset()
	calls, err := parseCalls(content, p.cur.kind == kindJSONFence)
	if err == nil {
		for _, c := range calls {
			p.out = append(p.out, model.Part{FunctionCall: &model.FunctionCall{ID: p.newID(), Name: c.name, Args: c.args}})
		}
		p.trimLead = true
		return
	}
	p.emitText(p.cur.tag + content + closer)
	if p.cur.kind != kindJSONFence {
		p.emitText(fmt.Sprintf("\n[This tool call was not run: %v. Write it again as valid JSON in a tool_call block.]\n", err))
		p.trimLead = true
	}
}

// emitText adds text to the output, merged with text just before it.
func (p *parser) emitText(s string) {
	if p.trimLead {
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" {
			return
		}
		p.trimLead = false
	}
	p.emit(s, false)
}

// emitThought adds reasoning to the output.
func (p *parser) emitThought(s string) { p.emit(s, true) }

// emit appends a text or thought part, merging it with the last part when
// that is of the same kind.
func (p *parser) emit(s string, thought bool) {
	if s == "" {
		return
	}
	if n := len(p.out); n > 0 {
		last := &p.out[n-1]
		if last.FunctionCall == nil && last.InlineData == nil && last.Thought == thought {
			last.Text += s
			return
		}
	}
	p.out = append(p.out, model.Part{Text: s, Thought: thought})
}

// jsonScan follows JSON strings byte by byte.
type jsonScan struct {
	inString, escape bool
	// lineStart is true after a newline and any blanks that follow it.
	lineStart bool
}

// step advances the scan over b.
func (s *jsonScan) step(b byte) {
	switch {
	case s.escape:
		s.escape = false
	case s.inString && b == '\\':
		s.escape = true
	case b == '"':
		s.inString = !s.inString
	}
	switch b {
	case '\n':
		s.lineStart = true
	case ' ', '\t', '\r':
	default:
		s.lineStart = false
	}
}

// partialSuffix returns the length of the longest suffix of s that is a
// proper prefix of closer: text that may be the start of the closer.
func partialSuffix(s, closer string) int {
	for n := min(len(s), len(closer)-1); n > 0; n-- {
		if strings.HasPrefix(closer, s[len(s)-n:]) {
			return n
		}
	}
	return 0
}

// isWordByte reports whether b may continue a fence's language name.
func isWordByte(b byte) bool {
	return b == '_' || b == '-' || b == '+' || b == '.' ||
		'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}
