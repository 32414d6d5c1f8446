package openai

import "runtime/debug"

// argBlock is the size of the blocks a call's argument text is gathered in
// once it outgrows the first.
const argBlock = 1 << 20

// hugeArgs is the size of a call's argument text past which memory is
// released before the text is decoded (see releaseBeforeDecode). Models
// write kilobytes of arguments; a write_file of tens or hundreds of
// megabytes from a scripted or self-hosted server writes more.
const hugeArgs = 16 << 20

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
// blocks and returns the text; for a huge text, after releaseBeforeDecode.
func (a *argText) bytes() []byte {
	if len(a.full) > 0 {
		out := make([]byte, 0, a.n)
		for _, b := range a.full {
			out = append(out, b...)
		}
		a.full, a.last = nil, append(out, a.last...)
	}
	if a.n > hugeArgs {
		releaseBeforeDecode()
	}
	return a.last
}

// releaseBeforeDecode frees the blocks of a huge argument text, just
// joined, and what decoding its deltas left behind, and returns their
// pages to the system, so that decoding holds the text, encoding/json's
// unescaped copy and the final string (3x) and no more. The blocks' pages
// lie between those of the deltas' small objects, so the decode's two
// large allocations cannot reuse them: runtime.GC alone (here and before
// the join as well) left a 49 MiB write_file through the binary at a
// peak of 215 MiB; debug.FreeOSMemory here, 182-183 MiB (3x the content
// and 35 MiB, as on the Gemini path).
func releaseBeforeDecode() { debug.FreeOSMemory() }
