package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// realistic returns the i-th record of a typical session: ~300 bytes of
// user, model, event and tool_state payloads.
func realistic(i int) Record {
	text := strings.Repeat("the quick brown fox jumps over the lazy dog ", 5)
	var v any
	typ := [...]string{"user", "model", "event", "tool_state"}[i%4]
	switch typ {
	case "user", "model":
		v = map[string]any{"role": typ, "parts": []any{map[string]any{"text": text}}}
	case "event":
		v = map[string]any{"kind": "tool_call_update", "toolCallId": fmt.Sprintf("call_%d", i),
			"status": "completed", "content": []any{map[string]any{"type": "text", "text": text[:150]}}}
	default:
		v = map[string]any{"id": fmt.Sprintf("call_%d", i), "name": "read_file",
			"args":   map[string]any{"path": "/work/project/internal/parser/lexer.go", "offset": i},
			"result": text[:120]}
	}
	return rec(typ, i, v)
}

func BenchmarkLoad10k(b *testing.B) {
	s, _ := newTestStore(b)
	s.log = discard()
	w := create(b, s, "bench", testCwd("bench"))
	for i := range 10_000 {
		mustAppend(b, w, realistic(i))
	}
	w.Close()
	dir, _ := s.locate("bench")
	fi, err := os.Stat(filepath.Join(dir, "bench"+logExt))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	b.ReportAllocs()
	for b.Loop() {
		_, recs, err := s.Load("bench")
		if err != nil || len(recs) != 10_000 {
			b.Fatalf("Load: %d records, %v", len(recs), err)
		}
	}
	b.ReportMetric(float64(fi.Size())/10_000, "bytes/record")
}

func BenchmarkAppend(b *testing.B) {
	s, _ := newTestStore(b)
	s.log = discard()
	recs := make([]Record, 64)
	size := 0
	for i := range recs {
		recs[i] = realistic(i)
		line, _ := appendRecord(nil, recs[i])
		size += len(line)
	}
	b.SetBytes(int64(size / len(recs)))
	b.ReportAllocs()
	w := create(b, s, "bench", testCwd("bench"))
	n := 0
	for b.Loop() {
		if err := w.Append(recs[n%len(recs)]); err != nil {
			b.Fatal(err)
		}
		if n++; n%100_000 == 0 { // keep the file small
			b.StopTimer()
			w.Close()
			s.Delete("bench")
			w = create(b, s, "bench", testCwd("bench"))
			b.StartTimer()
		}
	}
	w.Close()
}

func BenchmarkListIndexed(b *testing.B) {
	s, _ := newTestStore(b)
	s.log = discard()
	for i := range 200 {
		session(b, s, fmt.Sprintf("s%03d", i), testCwd(fmt.Sprintf("p%d", i%5)), i)
	}
	b.ReportAllocs()
	for b.Loop() {
		if infos, _, err := s.List(ListOptions{}); err != nil || len(infos) != DefaultLimit {
			b.Fatalf("List = %d, %v", len(infos), err)
		}
	}
}
