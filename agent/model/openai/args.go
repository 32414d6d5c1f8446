package openai

import "companion/agent/model"

// argBlock is the size of the blocks a call's argument text is gathered in
// once it outgrows the first.
const argBlock = 1 << 20

// argText gathers a tool call's argument text from its deltas. Servers
// stream arguments a few tokens per delta, and they may add up to a whole
// file (write_file). One slice grown by append would be copied about four
// times over (Go grows a large slice by a quarter at a time) and hold up
// to a quarter more than the text while it is decoded; full blocks are
// never copied until the text is joined, once, into a slice of its exact
// size.
type argText struct {
	// full are the blocks filled so far, in order; last is the one being
	// filled. Until last reaches argBlock it grows as a slice does, so
	// the usual small call is one short slice and never joined.
	full [][]byte
	last []byte
	// n is the length of the text.
	n int
}

// add appends s to the text.
func (a *argText) add(s string) {
	a.n += len(s)
	for s != "" {
		if cap(a.last) < argBlock {
			a.last = append(a.last, s...)
			return
		}
		if len(a.last) == cap(a.last) {
			a.full = append(a.full, a.last)
			a.last = make([]byte, 0, argBlock)
		}
		k := min(len(s), cap(a.last)-len(a.last))
		a.last = append(a.last, s[:k]...)
		s = s[k:]
	}
}

// bytes joins the text into one slice of its exact size, once, drops the
// blocks and returns the text; for a huge text, after model.ReleaseBeforeDecode.
func (a *argText) bytes() []byte {
	if len(a.full) > 0 {
		out := make([]byte, 0, a.n)
		for _, b := range a.full {
			out = append(out, b...)
		}
		a.full, a.last = nil, append(out, a.last...)
	}
	model.ReleaseBeforeDecode(a.n)
	return a.last
}
