package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// line is one well-formed record line of type typ.
func line(typ string) string {
	return `{"type":"` + typ + `","time":"2025-03-01T12:00:01Z","data":{"k":"v"}}` + "\n"
}

func TestLoadDamaged(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		want    string // record types, comma-separated
		warning string // expected in the log, "" for none
	}{
		{"clean", line("a") + line("b"), "a,b", ""},
		{"header only", "", "", ""},
		{"torn last line", line("a") + line("b") + `{"type":"c","ti`, "a,b", "torn last line"},
		{"torn but complete JSON", line("a") + strings.TrimSuffix(line("b"), "\n"), "a", "torn last line"},
		{"torn NUL bytes", line("a") + "\x00\x00\x00", "a", "torn last line"},
		{"corrupt middle line", line("a") + "{garbage\n" + line("b"), "a,b", "corrupt line"},
		{"NUL line in the middle", line("a") + "\x00\x00\n" + line("b"), "a,b", "corrupt line"},
		{"two records glued", line("a") + strings.TrimSuffix(line("x"), "\n") + line("y") + line("b"), "a,b", "corrupt line"},
		{"no type", line("a") + `{"time":"2025-03-01T12:00:01Z"}` + "\n", "a", "corrupt line"},
		{"bad time", line("a") + `{"type":"x","time":"yesterday"}` + "\n", "a", "corrupt line"},
		{"not an object", line("a") + "[1,2]\n" + line("b"), "a,b", "corrupt line"},
		{"blank lines", "\n" + line("a") + "  \n\n" + line("b"), "a,b", ""},
		{"CRLF", strings.ReplaceAll(line("a")+line("b"), "\n", "\r\n"), "a,b", ""},
		{"unknown types", line("future_kind") + line("compaction"), "future_kind,compaction", ""},
		{"other field order", `{"time":"2025-03-01T12:00:01Z","data":[1],"type":"r"}` + "\n", "r", ""},
		{"spaces", `{ "type" : "s" , "time" : "2025-03-01T12:00:01Z" , "data" : { "a" : 1 } }` + "\n", "s", ""},
		{"escaped type", `{"type":"\u0061b","time":"2025-03-01T12:00:01Z"}` + "\n", "ab", ""},
		{"no time", `{"type":"n"}` + "\n", "n", ""},
		{"extra field", `{"type":"e","time":"2025-03-01T12:00:01Z","data":1,"more":true}` + "\n", "e", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, logs := newTestStore(t)
			rawLog(t, s, "s", testCwd("p"), tt.body)
			meta, recs, err := s.Load("s")
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if meta.Cwd != testCwd("p") {
				t.Errorf("cwd = %q", meta.Cwd)
			}
			if got := types(recs); got != tt.want {
				t.Errorf("types = %q, want %q", got, tt.want)
			}
			if tt.warning == "" && strings.Contains(logs.String(), "WARN") {
				t.Errorf("unexpected warning: %s", logs)
			}
			if tt.warning != "" && !strings.Contains(logs.String(), tt.warning) {
				t.Errorf("log %q lacks %q", logs, tt.warning)
			}
		})
	}
}

func TestLoadBadHeader(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    error
	}{
		{"empty file", "", ErrCorrupt},
		{"torn header", `{"type":"session","vers`, ErrCorrupt},
		{"not a header", line("user"), ErrCorrupt},
		{"garbage", "hello\n", ErrCorrupt},
		{"newer version", `{"type":"session","version":2,"id":"s","cwd":"/p"}` + "\n", ErrVersion},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTestStore(t)
			path := rawLog(t, s, "s", testCwd("p"), "")
			if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, _, err := s.Load("s"); !errors.Is(err, tt.want) {
				t.Errorf("Load = %v, want %v", err, tt.want)
			}
			if _, err := s.Append("s"); !errors.Is(err, tt.want) {
				t.Errorf("Append = %v, want %v", err, tt.want)
			}
			if _, ok := s.Find("s"); ok {
				t.Error("Find accepts a log without a valid header")
			}
			if infos, _, err := s.List(ListOptions{}); err != nil || len(infos) != 0 {
				t.Errorf("List = %v, %v; want no sessions", infos, err)
			}
		})
	}
}

func TestLoadUnknown(t *testing.T) {
	s, _ := newTestStore(t)
	if _, _, err := s.Load("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Load = %v, want ErrNotFound", err)
	}
	if _, err := s.Append("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Append = %v, want ErrNotFound", err)
	}
	if _, _, err := s.Load("a/b"); !errors.Is(err, ErrBadID) {
		t.Errorf("Load = %v, want ErrBadID", err)
	}
}

func TestAppendAfterTornLine(t *testing.T) {
	tests := []struct {
		name, tail string
	}{
		{"short", `{"type":"c","ti`},
		{"long, past one read chunk", `{"type":"c","data":"` + strings.Repeat("x", 3*tailChunk)},
		{"clean", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, logs := newTestStore(t)
			body := line("a") + line("b")
			path := rawLog(t, s, "s", testCwd("p"), body+tt.tail)
			w, err := s.Append("s")
			if err != nil {
				t.Fatal(err)
			}
			mustAppend(t, w, rec("d", 5, 5))
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			_, recs, err := s.Load("s")
			if got := types(recs); err != nil || got != "a,b,d" {
				t.Errorf("Load = %q, %v; want a,b,d", got, err)
			}
			raw, _ := os.ReadFile(path)
			if !bytes.Contains(raw, []byte(body+`{"type":"d"`)) || !bytes.HasSuffix(raw, []byte("}\n")) {
				t.Errorf("log after repair:\n%s", raw)
			}
			if cut := strings.Contains(logs.String(), "cutting a torn last line"); cut != (tt.tail != "") {
				t.Errorf("repair logged = %v, want %v", cut, tt.tail != "")
			}
		})
	}
}

func TestLongLines(t *testing.T) {
	s, _ := newTestStore(t)
	w := create(t, s, "big", testCwd("p"))
	size := 33 << 20 // past the 32 MiB lines the agent may write
	if raceEnabled {
		size = 1 << 20 // still past every read buffer
	}
	big := strings.Repeat("x", size)
	mustAppend(t, w, rec("small", 1, 1), rec("big", 2, big), rec("title", 3, map[string]string{"title": big[:10]}))
	w.Close()
	_, recs, err := s.Load("big")
	if err != nil || types(recs) != "small,big,title" {
		t.Fatalf("Load = %q, %v", types(recs), err)
	}
	var got string
	if json.Unmarshal(recs[1].Data, &got); got != big {
		t.Errorf("big record has %d bytes, want %d", len(got), len(big))
	}
	// Rebuilding the index entry reads through the long line too.
	s.dropEntry(filepath.Join(s.root, ProjectKey(testCwd("p"))), "big")
	infos, _, err := s.List(ListOptions{})
	if err != nil || len(infos) != 1 || infos[0].Title != big[:10] || !infos[0].UpdatedAt.Equal(t0.Add(3e9)) {
		t.Errorf("List = %+v, %v", infos, err)
	}
}

// fastCases are lines for the fast and slow parsers to agree on.
var fastCases = []string{
	`{"type":"a","time":"2025-03-01T12:00:01Z","data":{"k":"v"}}`,
	`{"type":"a","time":"2025-03-01T12:00:01.123456789+02:00"}`,
	`{"type":"a","time":"2025-03-01T12:00:01Z","data":null}`,
	`{"type":"a","time":"2025-03-01T12:00:01Z","data":"x"}`,
	`{"type":"a","time":"2025-03-01T12:00:01Z","data":1,"data":2}`,
	`{"type":"a","time":"2025-03-01T12:00:01Z","data":}`,
	`{"type":"a","time":"2025-03-01T12:00:01Z","data": 1}`,
	`{"type":"a","time":"2025-03-01T12:00:01Z"}}`,
	`{"type":"a","time":"2025-13-01T12:00:01Z"}`,
	`{"type":"a","time":"2025-03-01T12:00:01Z","data":{"x":"}"}}`,
	`{"type":"a\"b","time":"2025-03-01T12:00:01Z"}`,
	`{"type":"","time":"2025-03-01T12:00:01Z"}`,
}

// checkParsers fails when the fast parser accepts line differently from
// encoding/json.
func checkParsers(t *testing.T, line string) {
	var p parser
	fast, ok := p.parseFast([]byte(line))
	if !ok {
		return
	}
	var slow Record
	if err := json.Unmarshal([]byte(line), &slow); err != nil {
		t.Fatalf("fast parser accepts %q, encoding/json does not: %v", line, err)
	}
	if fast.Type != slow.Type || !fast.Time.Equal(slow.Time) || !bytes.Equal(fast.Data, slow.Data) {
		t.Fatalf("%q: fast %+v, slow %+v", line, fast, slow)
	}
}

func TestParseFastAgrees(t *testing.T) {
	accepted := 0
	for _, l := range fastCases {
		checkParsers(t, l)
		var p parser
		if _, ok := p.parseFast([]byte(l)); ok {
			accepted++
		}
	}
	if accepted != 5 {
		t.Errorf("fast path took %d lines, want 5 (the rest go the slow way)", accepted)
	}
}

func FuzzParseFast(f *testing.F) {
	for _, l := range fastCases {
		f.Add(l)
	}
	f.Fuzz(checkParsers)
}
