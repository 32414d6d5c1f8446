package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"companion/agent/model"
)

// requestTypes are the params the agent decodes from clients, indexed by
// the fuzzer's first byte.
func requestTypes() []func() any {
	return []func() any{
		func() any { return new(InitializeRequest) },
		func() any { return new(AuthenticateRequest) },
		func() any { return new(NewSessionRequest) },
		func() any { return new(PromptRequest) },
		func() any { return new(CancelNotification) },
		func() any { return new(SetSessionModeRequest) },
		func() any { return new(SetSessionConfigOptionRequest) },
		func() any { return new(CloseSessionRequest) },
		func() any { return new(LoadSessionRequest) },
		func() any { return new(RequestPermissionResponse) },
		func() any { return new(ReadTextFileResponse) },
	}
}

// FuzzDecodeRequest feeds arbitrary JSON to the decoders of every request
// the agent receives. Decoding must never panic; whatever decodes must
// encode again and decode to the same value; prompts must convert to model
// parts or fail cleanly.
func FuzzDecodeRequest(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.json")
	for _, p := range seeds {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		var examples []json.RawMessage
		if json.Unmarshal(data, &examples) != nil {
			examples = []json.RawMessage{data}
		}
		for i, ex := range examples {
			f.Add(byte(i), []byte(ex))
		}
	}
	types := requestTypes()
	f.Fuzz(func(t *testing.T, which byte, data []byte) {
		v := types[int(which)%len(types)]()
		if json.Unmarshal(data, v) != nil {
			return
		}
		if p, ok := v.(*PromptRequest); ok {
			promptParts(p.Prompt, func(*ResourceLink) []model.Part { return nil }, func(_, t string) string { return t })
		}
		out, err := json.Marshal(v)
		if err != nil {
			return // e.g. a union left empty by a null member: encoding refuses it
		}
		// One round may normalise (an empty _meta object disappears); after
		// that, encoding and decoding must be stable.
		out2 := roundTrip(t, v, out)
		if out3 := roundTrip(t, v, out2); string(out3) != string(out2) {
			t.Fatalf("%T does not round-trip:\n%s\n%s", v, out2, out3)
		}
	})
}

// roundTrip decodes data into a new value of v's type and encodes it again.
func roundTrip(t *testing.T, v any, data []byte) []byte {
	t.Helper()
	again := reflect.New(reflect.TypeOf(v).Elem()).Interface()
	if err := json.Unmarshal(data, again); err != nil {
		t.Fatalf("re-decoding %T failed: %v\n%s", v, err, data)
	}
	out, err := json.Marshal(again)
	if err != nil {
		t.Fatalf("re-encoding %T failed: %v", v, err)
	}
	return out
}
