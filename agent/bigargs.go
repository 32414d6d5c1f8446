package agent

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"

	"companion/agent/model"
)

// maxResentArg is the longest string argument of the model's own call that
// history keeps to resend. A longer one (a write_file of megabytes) is
// replaced by a note with its size and digest: resent whole it would be
// copied again into every later request, the journal and the loop check,
// and no model takes a request of that size back anyway.
const maxResentArg = 1 << 20

// compactArgs returns args with every string longer than limit, at any
// depth, replaced by a note naming its size and SHA-256 (so two different
// long texts still differ). args itself is never changed; when nothing is
// over the limit it is returned as is and changed is false.
func compactArgs(args map[string]any, limit int) (out map[string]any, changed bool) {
	v, changed := compactValue(args, limit)
	if !changed {
		return args, false
	}
	return v.(map[string]any), true
}

func compactValue(v any, limit int) (any, bool) {
	switch v := v.(type) {
	case string:
		if len(v) <= limit {
			return v, false
		}
		return longTextNote(v), true
	case map[string]any:
		var out map[string]any
		for k, e := range v {
			c, ok := compactValue(e, limit)
			if !ok {
				continue
			}
			if out == nil {
				out = make(map[string]any, len(v))
				for k2, e2 := range v {
					out[k2] = e2
				}
			}
			out[k] = c
		}
		if out == nil {
			return v, false
		}
		return out, true
	case []any:
		var out []any
		for i, e := range v {
			c, ok := compactValue(e, limit)
			if !ok {
				continue
			}
			if out == nil {
				out = append([]any(nil), v...)
			}
			out[i] = c
		}
		if out == nil {
			return v, false
		}
		return out, true
	}
	return v, false
}

// longTextNote stands for a text too long to keep: its length and digest,
// hashed without a copy of the text.
func longTextNote(s string) string {
	h := sha256.New()
	var buf [32 << 10]byte
	for rest := s; rest != ""; {
		n := copy(buf[:], rest)
		h.Write(buf[:n])
		rest = rest[n:]
	}
	return fmt.Sprintf("[%d bytes, sha256 %x, left out here]", len(s), h.Sum(nil)[:12])
}

// compactCalls compacts, for history, the long string arguments of the
// function calls in parts (see maxResentArg). It replaces a part's call by
// a compacted copy in place: parts must be the caller's own slice.
func compactCalls(parts []model.Part) {
	for i, p := range parts {
		if p.FunctionCall == nil {
			continue
		}
		if args, changed := compactArgs(p.FunctionCall.Args, maxResentArg); changed {
			fc := *p.FunctionCall
			fc.Args = args
			parts[i].FunctionCall = &fc
		}
	}
}

// shownInput is a call's input as front ends, telemetry and the journal
// see it: the arguments with every string over maxKeptText compacted. It is
// marshalled from the arguments, never from the call's full JSON.
func shownInput(args map[string]any) json.RawMessage {
	small, changed := compactArgs(args, maxKeptText)
	if !changed {
		return nil
	}
	b, err := json.Marshal(small)
	if err != nil {
		return nil
	}
	return b
}

// marshalArgs is json.Marshal of a call's arguments, written for long
// strings into a buffer sized once: json.Marshal grows its buffer step by
// step and copies the result, several times the text for a write of
// hundreds of megabytes. Short values go through json.Marshal as they are.
func marshalArgs(args map[string]any) (json.RawMessage, error) {
	size := 2
	for k, v := range args {
		size += len(k) + 8
		if s, ok := v.(string); ok && len(s) > maxKeptText {
			size += len(s) + len(s)/8
		}
	}
	if size < maxKeptText {
		return json.Marshal(args)
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]byte, 0, size)
	out = append(out, '{')
	for i, k := range keys {
		if i > 0 {
			out = append(out, ',')
		}
		key, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		out = append(append(out, key...), ':')
		if out, err = appendValue(out, args[k]); err != nil {
			return nil, err
		}
	}
	return append(out, '}'), nil
}

// appendValue appends v's JSON to out; a long string is escaped by
// json.Marshal piece by piece, each piece ending on a character boundary.
func appendValue(out []byte, v any) ([]byte, error) {
	s, ok := v.(string)
	if !ok || len(s) <= maxKeptText {
		b, err := json.Marshal(v)
		return append(out, b...), err
	}
	const piece = 64 << 10
	out = append(out, '"')
	for s != "" {
		n := min(piece, len(s))
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		b, err := json.Marshal(s[:n])
		if err != nil {
			return nil, err
		}
		out = append(out, b[1:len(b)-1]...)
		s = s[n:]
	}
	return append(out, '"'), nil
}
