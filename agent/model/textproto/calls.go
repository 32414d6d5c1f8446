package textproto

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// call is one parsed tool call.
type call struct {
	name string
	args map[string]any
}

// parseCalls parses the content of a call block: one or more JSON objects
// {"name": ..., "arguments": {...}}, or arrays of them. strict (```json
// blocks, which may hold any JSON) requires an arguments key, so ordinary
// JSON is not taken for a call.
func parseCalls(content string, strict bool) ([]call, error) {
	s := strings.TrimSpace(content)
	if inner, ok := strings.CutPrefix(s, "<tool_call>"); ok {
		s = strings.TrimSpace(strings.TrimSuffix(inner, "</tool_call>"))
	}
	if s == "" {
		return nil, errEmptyCall
	}
	dec := json.NewDecoder(strings.NewReader(s))
	var out []call
	for {
		var v json.RawMessage
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w (%v)", errBadJSON, err)
		}
		cs, err := callsOf(v, strict)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	if len(out) == 0 {
		return nil, errEmptyCall
	}
	return out, nil
}

// callsOf parses one JSON value: a call or an array of calls.
func callsOf(v json.RawMessage, strict bool) ([]call, error) {
	if v[0] != '[' {
		c, err := callOf(v, strict)
		if err != nil {
			return nil, err
		}
		return []call{c}, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil {
		return nil, fmt.Errorf("%w (%v)", errBadJSON, err)
	}
	out := make([]call, 0, len(items))
	for _, it := range items {
		c, err := callOf(it, strict)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// callOf parses one call object.
func callOf(v json.RawMessage, strict bool) (call, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(v, &obj); err != nil {
		if strict {
			return call{}, errNotCall
		}
		return call{}, fmt.Errorf("%w (a call is an object, not %s)", errBadJSON, v[:1])
	}
	var name string
	if raw, ok := obj["name"]; ok {
		_ = json.Unmarshal(raw, &name)
	}
	name = strings.TrimSpace(name)
	var rawArgs json.RawMessage
	found := false
	// The prompt asks for "arguments"; models trained on other formats
	// write the others.
	for _, k := range []string{"arguments", "args", "parameters"} {
		if rawArgs, found = obj[k]; found {
			break
		}
	}
	if strict && (name == "" || !found) {
		return call{}, errNotCall
	}
	if name == "" {
		return call{}, errNoName
	}
	args, err := argsOf(rawArgs)
	if err != nil {
		return call{}, err
	}
	return call{name: name, args: args}, nil
}

// argsOf decodes a call's arguments: an object, an object encoded as a JSON
// string (as OpenAI-style models write it), or nothing.
func argsOf(raw json.RawMessage) (map[string]any, error) {
	s := strings.TrimSpace(string(raw))
	if strings.HasPrefix(s, `"`) {
		var inner string
		if err := json.Unmarshal(raw, &inner); err != nil {
			return nil, errArgs
		}
		s = strings.TrimSpace(inner)
	}
	if s == "" || s == "null" {
		return map[string]any{}, nil
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(s), &args); err != nil || args == nil {
		return nil, errArgs
	}
	return args, nil
}
