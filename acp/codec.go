package acp

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// This file holds the small JSON helpers the generated unions and raw
// types call (unions_gen.go). They are hand-written, not generated.

// isNull reports whether data is the JSON literal null.
func isNull(data []byte) bool {
	return string(bytes.TrimSpace(data)) == "null"
}

// members splits a JSON object into its members; anything else is an error.
func members(data []byte) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, fmt.Errorf("want a JSON object: %w", err)
	}
	return obj, nil
}

// stringMember returns the string member key of obj and whether it is
// present. A present member that is not a string is an error; null counts
// as absent.
func stringMember(obj map[string]json.RawMessage, key string) (string, bool, error) {
	raw, ok := obj[key]
	if !ok || isNull(raw) {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, fmt.Errorf("member %q is not a string: %w", key, ErrUnknownVariant)
	}
	return s, true, nil
}

// hasMembers reports whether obj has every one of keys.
func hasMembers(obj map[string]json.RawMessage, keys ...string) bool {
	for _, k := range keys {
		if _, ok := obj[k]; !ok {
			return false
		}
	}
	return true
}

// joinMembers encodes each part (each must encode as a JSON object) and
// writes their members into one object, preceded by disc: tag when tag is
// not empty. This is how a variant's members sit beside its discriminator.
func joinMembers(disc, tag string, parts ...any) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	if tag != "" {
		k, _ := json.Marshal(disc)
		v, _ := json.Marshal(tag)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
		n++
	}
	for _, p := range parts {
		data, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		data = bytes.TrimSpace(data)
		if len(data) < 2 || data[0] != '{' || data[len(data)-1] != '}' {
			return nil, fmt.Errorf("acp: %T does not encode as a JSON object: %w", p, ErrRawKind)
		}
		inner := bytes.TrimSpace(data[1 : len(data)-1])
		if len(inner) == 0 {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(inner)
		n++
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// decodeVariant decodes data into a new T and stores it in *dst.
func decodeVariant[T any](data []byte, dst **T, union, kind string) error {
	v := new(T)
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("acp: %s %s: %w", union, kind, err)
	}
	*dst = v
	return nil
}

// decodeSlice decodes a JSON array into *dst.
func decodeSlice[T any](data []byte, dst *[]T, union, kind string) error {
	if err := json.Unmarshal(data, dst); err != nil {
		return fmt.Errorf("acp: %s %s: %w", union, kind, err)
	}
	return nil
}

// firstElement returns the members of the first element of a JSON array,
// or empty = true for [].
func firstElement(data []byte) (first map[string]json.RawMessage, empty bool, err error) {
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, false, fmt.Errorf("want a JSON array: %w", err)
	}
	if len(items) == 0 {
		return nil, true, nil
	}
	first, err = members(items[0])
	return first, false, err
}

// rawTag returns the string member key of a raw JSON object, or "".
func rawTag(raw json.RawMessage, key string) string {
	obj, err := members(raw)
	if err != nil {
		return ""
	}
	s, _, _ := stringMember(obj, key)
	return s
}

// variantCountError reports a union with n variants set.
func variantCountError(union string, n int) error {
	return fmt.Errorf("acp: %s has %d variants set: %w", union, n, ErrVariantCount)
}

// unknownVariantError reports a tag, or a shape, that no variant matches.
func unknownVariantError(union, disc, tag string) error {
	if disc == "" {
		return fmt.Errorf("acp: %s: no variant matches the members: %w", union, ErrUnknownVariant)
	}
	return fmt.Errorf("acp: %s: unknown %s %q: %w", union, disc, tag, ErrUnknownVariant)
}
