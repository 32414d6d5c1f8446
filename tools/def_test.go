package tools

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unsafe"
)

type valuesSample struct {
	Path    string `json:"path" required:"true"`
	Content string `json:"content"`
	Limit   int    `json:"limit" default:"5"`
}

// TestPrepareValues checks that a tool made by Define binds arguments a
// provider has already decoded: a string is the provider's own (no copy),
// a wrong value is the model's problem, and a Def with a Bind of its own
// gets the values as JSON.
func TestPrepareValues(t *testing.T) {
	var got valuesSample
	prepare := func(_ *Env, p valuesSample) (Invocation, error) { got = p; return nil, nil }
	plain := Define(Def[valuesSample]{Name: "plain", Prepare: prepare}).(*defined[valuesSample])
	var rawSeen string
	custom := Define(Def[valuesSample]{Name: "custom", Prepare: prepare,
		Bind: func(args json.RawMessage) (valuesSample, error) {
			rawSeen = string(args)
			return Bind[valuesSample](args)
		}}).(*defined[valuesSample])

	content := strings.Repeat("line\n", 1000)
	if _, err := plain.PrepareValues(nil, map[string]any{"path": "a", "content": content}); err != nil {
		t.Fatal(err)
	}
	if got.Path != "a" || got.Limit != 5 || unsafe.StringData(got.Content) != unsafe.StringData(content) {
		t.Errorf("PrepareValues bound %q, limit %d, content copied: %v", got.Path, got.Limit,
			unsafe.StringData(got.Content) != unsafe.StringData(content))
	}

	_, err := plain.PrepareValues(nil, map[string]any{"path": "a", "limit": "3"})
	if want := `parameter "limit" must be an integer, not a string`; err == nil || err.Error() != want || !errors.Is(err, ErrInvalidArgs) {
		t.Errorf("a string for an integer: %v, want %q", err, want)
	}

	got = valuesSample{}
	if _, err := custom.PrepareValues(nil, map[string]any{"path": "b", "limit": 2.0}); err != nil {
		t.Fatal(err)
	}
	if rawSeen != `{"limit":2,"path":"b"}` || got.Path != "b" || got.Limit != 2 {
		t.Errorf("custom Bind saw %s and bound %+v", rawSeen, got)
	}
}
