package headless

import "fmt"

// addText streams a piece of text or thinking into the assistant message
// being built (stream-json only).
func (r *reporter) addText(kind, text string) {
	if r.format != formatStream || text == "" {
		return
	}
	d := r.begin()
	if d.open >= 0 && d.blocks[d.open].Type == kind {
		b := &d.blocks[d.open]
		if kind == "text" {
			*b.Text += text
		} else {
			*b.Thinking += text
		}
		r.delta(d.open, kind, text)
		return
	}
	r.closeBlock()
	empty, s := "", text
	b := block{Type: kind}
	if kind == "text" {
		b.Text = &s
		r.event(map[string]any{"type": "content_block_start", "index": len(d.blocks), "content_block": block{Type: kind, Text: &empty}})
	} else {
		b.Thinking = &s
		r.event(map[string]any{"type": "content_block_start", "index": len(d.blocks), "content_block": block{Type: kind, Thinking: &empty}})
	}
	d.blocks = append(d.blocks, b)
	d.open = len(d.blocks) - 1
	r.delta(d.open, kind, text)
}

// toolUse adds a tool call to the assistant message being built.
func (r *reporter) toolUse(id, name string, input []byte) {
	d := r.begin()
	r.closeBlock()
	i := len(d.blocks)
	b := block{Type: "tool_use", ID: id, Name: name, Input: input}
	r.event(map[string]any{"type": "content_block_start", "index": i,
		"content_block": block{Type: "tool_use", ID: id, Name: name, Input: []byte("{}")}})
	r.event(map[string]any{"type": "content_block_delta", "index": i,
		"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
	r.event(map[string]any{"type": "content_block_stop", "index": i})
	d.blocks = append(d.blocks, b)
}

// begin returns the draft, starting a new message when there is none.
func (r *reporter) begin() *draft {
	d := &r.draft
	if d.id == "" {
		d.seq++
		d.id = fmt.Sprintf("msg_%s_%d", shortID(r.session), d.seq)
		d.open = -1
		r.event(map[string]any{"type": "message_start", "message": map[string]any{
			"id": d.id, "type": "message", "role": "assistant", "model": r.model(), "content": []block{}}})
	}
	return d
}

// delta streams one piece of a text or thinking block.
func (r *reporter) delta(i int, kind, text string) {
	if kind == "text" {
		r.event(map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": text}})
	} else {
		r.event(map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "thinking_delta", "thinking": text}})
	}
}

// closeBlock ends the streaming text or thinking block, if any.
func (r *reporter) closeBlock() {
	if d := &r.draft; d.open >= 0 {
		r.event(map[string]any{"type": "content_block_stop", "index": d.open})
		d.open = -1
	}
}

// flushLocked writes the assistant message built so far, if any; stop is
// its stop reason ("" to tell from its blocks). Its usage is what the
// session used since the last message.
func (r *reporter) flushLocked(stop string) {
	d := &r.draft
	if d.id == "" {
		return
	}
	r.closeBlock()
	if stop == "" {
		stop = "end_turn"
		if d.blocks[len(d.blocks)-1].Type == "tool_use" {
			stop = "tool_use"
		}
	}
	var used usage
	if r.totals != nil {
		now := r.totals()
		used = usageOf(now.Tokens.Sub(r.lastTotals.Tokens))
		r.lastTotals = now
	}
	r.event(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop}, "usage": used})
	r.event(map[string]any{"type": "message_stop"})
	r.lines.write(chatLine{envelope: r.envelope(typeAssistant), Message: apiMessage{ID: d.id, Type: "message",
		Role: "assistant", Model: r.model(), Content: d.blocks, StopReason: &stop, Usage: &used}})
	seq := d.seq
	*d = draft{open: -1, seq: seq}
}

// event writes a partial-message event when they were asked for.
func (r *reporter) event(ev map[string]any) {
	if r.partial && r.format == formatStream {
		r.lines.write(streamLine{envelope: r.envelope(typeStreamEvent), Event: ev})
	}
}

// shortID is the random part of a session id, shortened.
func shortID(session string) string {
	if len(session) > 13 {
		return session[len(session)-8:]
	}
	return session
}
