package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Record is one line of a session log after the header: a type chosen by
// the agent ("user", "model", "tool_state", ...), the time it happened and a
// JSON payload the store never interprets (except TypeTitle, see there).
// Data is written compacted (insignificant white space removed) and may be
// empty (no "data" field). Data returned by Load shares one buffer per
// Load; it is capped, so appending to it copies.
type Record struct {
	Type string          `json:"type"`
	Time time.Time       `json:"time"`
	Data json.RawMessage `json:"data,omitempty"`
}

// TypeTitle is the record type that Writer.SetTitle appends. Its data is
// {"title": string} (a bare JSON string is accepted too); the store reads
// the last such record of a log to give List its title.
const TypeTitle = "title"

// Meta describes a session: the content of its log's header line.
type Meta struct {
	// ID names the session and its log file; see ErrBadID for its alphabet.
	ID string
	// Cwd is the session's absolute working directory; it decides the
	// project folder of the log.
	Cwd string
	// AdditionalDirectories are further workspace roots (nil when none).
	AdditionalDirectories []string
	// CreatedAt is when the session began (Create fills in the current
	// time when zero).
	CreatedAt time.Time
}

// headerType and formatVersion mark the first line of a session log.
const (
	headerType    = "session"
	formatVersion = 1
)

// header is the JSON shape of a log's first line.
type header struct {
	Type                  string    `json:"type"`
	Version               int       `json:"version"`
	ID                    string    `json:"id"`
	Cwd                   string    `json:"cwd"`
	AdditionalDirectories []string  `json:"additionalDirectories"`
	CreatedAt             time.Time `json:"createdAt"`
}

// encodeHeader returns m's header line, newline included.
func encodeHeader(m Meta) ([]byte, error) {
	dirs := m.AdditionalDirectories
	if dirs == nil {
		dirs = []string{}
	}
	b, err := json.Marshal(header{Type: headerType, Version: formatVersion, ID: m.ID,
		Cwd: m.Cwd, AdditionalDirectories: dirs, CreatedAt: m.CreatedAt.UTC()})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadMeta, err)
	}
	return append(b, '\n'), nil
}

// parseHeader decodes a log's first line (without its newline).
func parseHeader(line []byte) (Meta, error) {
	var h header
	if err := json.Unmarshal(line, &h); err != nil {
		return Meta{}, fmt.Errorf("%w: header: %w", ErrCorrupt, err)
	}
	if h.Type != headerType {
		return Meta{}, fmt.Errorf("%w: first line is not a session header", ErrCorrupt)
	}
	if h.Version != formatVersion {
		return Meta{}, fmt.Errorf("%w: %d", ErrVersion, h.Version)
	}
	m := Meta{ID: h.ID, Cwd: h.Cwd, CreatedAt: h.CreatedAt}
	if len(h.AdditionalDirectories) > 0 {
		m.AdditionalDirectories = h.AdditionalDirectories
	}
	return m, nil
}

// appendRecord appends r's line, newline included, to buf. On error buf is
// returned unchanged.
func appendRecord(buf []byte, r Record) ([]byte, error) {
	if r.Type == "" {
		return buf, fmt.Errorf("%w: empty type", ErrBadRecord)
	}
	t := r.Time.UTC()
	if y := t.Year(); y < 0 || y > 9999 {
		return buf, fmt.Errorf("%w: time %v out of range", ErrBadRecord, r.Time)
	}
	mark := len(buf)
	buf = append(buf, `{"type":`...)
	buf = appendString(buf, r.Type)
	buf = append(buf, `,"time":"`...)
	buf = t.AppendFormat(buf, time.RFC3339Nano)
	buf = append(buf, '"')
	if len(r.Data) > 0 {
		buf = append(buf, `,"data":`...)
		out := bytes.NewBuffer(buf)
		if err := json.Compact(out, r.Data); err != nil {
			return buf[:mark], fmt.Errorf("%w: type %q: data: %w", ErrBadRecord, r.Type, err)
		}
		buf = out.Bytes()
	}
	return append(buf, '}', '\n'), nil
}

// appendString appends s as a JSON string.
func appendString(buf []byte, s string) []byte {
	if plainASCII([]byte(s)) {
		buf = append(buf, '"')
		buf = append(buf, s...)
		return append(buf, '"')
	}
	b, _ := json.Marshal(s) // a string always marshals
	return append(buf, b...)
}

// plainASCII reports whether b is printable ASCII without quote or
// backslash: bytes that stand for themselves in a JSON string.
func plainASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// parser decodes record lines, interning their types so that a log of
// thousands of records holds each type string once.
type parser struct {
	types map[string]string
}

// maxInterned bounds the type table against logs with many distinct types.
const maxInterned = 256

// parse decodes one complete line without its newline. The returned Data
// aliases line.
func (p *parser) parse(line []byte) (Record, error) {
	if r, ok := p.parseFast(line); ok {
		return r, nil
	}
	var r Record
	if err := json.Unmarshal(line, &r); err != nil {
		return Record{}, err
	}
	if r.Type == "" {
		return Record{}, fmt.Errorf("%w: no type", ErrBadRecord)
	}
	return r, nil
}

// parseFast decodes the exact shape appendRecord writes without building a
// decoder: {"type":"T","time":"RFC3339","data":D}. Anything else (escapes,
// other field order, white space) reports false and takes the slow path.
func (p *parser) parseFast(line []byte) (Record, bool) {
	rest, ok := bytes.CutPrefix(line, []byte(`{"type":"`))
	if !ok {
		return Record{}, false
	}
	i := bytes.IndexByte(rest, '"')
	if i <= 0 || !plainASCII(rest[:i]) {
		return Record{}, false
	}
	typ := rest[:i]
	if rest, ok = bytes.CutPrefix(rest[i:], []byte(`","time":"`)); !ok {
		return Record{}, false
	}
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return Record{}, false
	}
	var r Record
	if r.Time.UnmarshalText(rest[:j]) != nil {
		return Record{}, false
	}
	rest = rest[j+1:]
	if len(rest) != 1 || rest[0] != '}' {
		data, ok := bytes.CutPrefix(rest, []byte(`,"data":`))
		n := len(data) - 1
		if !ok || n < 1 || data[n] != '}' || isSpace(data[0]) || isSpace(data[n-1]) {
			return Record{}, false
		}
		if data = data[:n:n]; !json.Valid(data) {
			return Record{}, false
		}
		r.Data = data
	}
	r.Type = p.intern(typ)
	return r, true
}

// intern returns b as a string, shared with earlier equal types.
func (p *parser) intern(b []byte) string {
	if s, ok := p.types[string(b)]; ok {
		return s
	}
	s := string(b)
	if p.types == nil {
		p.types = make(map[string]string)
	}
	if len(p.types) < maxInterned {
		p.types[s] = s
	}
	return s
}

// isSpace reports JSON white space.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// titleOf returns the title a TypeTitle record's data carries.
func titleOf(data json.RawMessage) (string, bool) {
	var v struct {
		Title *string `json:"title"`
	}
	if json.Unmarshal(data, &v) == nil && v.Title != nil {
		return *v.Title, true
	}
	var s string
	if json.Unmarshal(data, &s) == nil {
		return s, true
	}
	return "", false
}
