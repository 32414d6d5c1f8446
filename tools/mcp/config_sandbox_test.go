package mcp

import "testing"

// TestParseServersSandbox: "sandbox": false and "sandboxNetwork": false
// become requests on the server; absent or true ask nothing.
func TestParseServersSandbox(t *testing.T) {
	servers, err := ParseServers([]byte(`{"a":{"command":"x","sandbox":false,"sandboxNetwork":false},
		"b":{"command":"y","sandbox":true,"sandboxNetwork":true},"c":{"command":"z"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]bool{"a": {true, true}, "b": {false, false}, "c": {false, false}}
	for _, s := range servers {
		if got := [2]bool{s.Unsandboxed, s.NoNetwork}; got != want[s.Name] {
			t.Errorf("%s: unsandboxed, no network = %v, want %v", s.Name, got, want[s.Name])
		}
	}
}
