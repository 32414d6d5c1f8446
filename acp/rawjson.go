package acp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// jsonKinds is a set of JSON value kinds, used by the generated raw types
// (RequestID, ElicitationContentValue) to check what they hold.
type jsonKinds uint8

// The JSON kinds. An integer also counts as a number.
const (
	jsonNull jsonKinds = 1 << iota
	jsonBoolean
	jsonInteger
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

// String names the kinds in the set, for error messages.
func (k jsonKinds) String() string {
	names := []string{"null", "boolean", "integer", "number", "string", "array", "object"}
	var out []string
	for i, n := range names {
		if k&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return strings.Join(out, "|")
}

// kindOf returns the kind of a compact, valid JSON value.
func kindOf(raw string) jsonKinds {
	switch raw[0] {
	case 'n':
		return jsonNull
	case 't', 'f':
		return jsonBoolean
	case '"':
		return jsonString
	case '[':
		return jsonArray
	case '{':
		return jsonObject
	}
	if strings.ContainsAny(raw, ".eE") {
		return jsonNumber
	}
	return jsonInteger
}

// rawOfKinds compacts data and checks that its kind is in accept. It
// returns "" for JSON null, so that null and the zero value compare equal.
func rawOfKinds(data []byte, accept jsonKinds, typ string) (string, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, data); err != nil {
		return "", fmt.Errorf("acp: %s: %w", typ, err)
	}
	raw := buf.String()
	if raw == "" {
		return "", fmt.Errorf("acp: %s: empty JSON value: %w", typ, ErrRawKind)
	}
	k := kindOf(raw)
	if k == jsonInteger && accept&jsonNumber != 0 {
		k = jsonNumber
	}
	switch {
	case k == jsonNull:
		return "", nil
	case accept&k == 0:
		return "", fmt.Errorf("acp: %s: %s value, want %s: %w", typ, k, accept, ErrRawKind)
	}
	return raw, nil
}
