package rpc

import (
	"strings"
	"testing"
)

// after is the good request sent after every transcript case, to show the
// connection still serves.
const (
	afterReq  = `{"jsonrpc":"2.0","id":"after","method":"echo","params":{"ok":true}}`
	afterResp = `{"jsonrpc":"2.0","id":"after","result":{"ok":true}}`
)

func invalid(id, msg string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,"message":"` + msg + `"}}`
}

func TestTranscriptNewline(t *testing.T) {
	tests := []struct {
		name string
		in   string // raw bytes, newline framed
		want []string
	}{
		{"bad json", `{"jsonrpc":"2.0","id":1,"method":` + "\n",
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: *"}}`}},
		{"garbage", "hello\n",
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: *"}}`}},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"echo"}]` + "\n",
			[]string{invalid("null", "invalid request: batches are not supported")}},
		{"empty batch", "[]\n", []string{invalid("null", "invalid request: batches are not supported")}},
		{"number", "42\n", []string{invalid("null", "invalid request: a message must be a JSON object")}},
		{"null", "null\n", []string{invalid("null", "invalid request: a message must be a JSON object")}},
		{"missing jsonrpc", `{"id":1,"method":"echo"}` + "\n",
			[]string{invalid("1", `invalid request: \"jsonrpc\":\"2.0\" is missing`)}},
		{"wrong jsonrpc", `{"jsonrpc":"1.0","id":2,"method":"echo"}` + "\n",
			[]string{invalid("2", `invalid request: \"jsonrpc\" must be \"2.0\", not \"1.0\"`)}},
		{"numeric jsonrpc", `{"jsonrpc":2.0,"id":"s","method":"echo"}` + "\n",
			[]string{invalid(`"s"`, `invalid request: \"jsonrpc\" must be \"2.0\", not 2.0`)}},
		{"method not a string", `{"jsonrpc":"2.0","id":3,"method":5}` + "\n",
			[]string{invalid("3", "invalid request: method must be a string")}},
		{"no method, result or error", `{"jsonrpc":"2.0","id":4}` + "\n",
			[]string{invalid("4", "invalid request: a message needs a method, a result or an error")}},
		{"method and result", `{"jsonrpc":"2.0","id":5,"method":"echo","result":{}}` + "\n",
			[]string{invalid("5", "invalid request: a message cannot have both a method and a result or error")}},
		{"result and error", `{"jsonrpc":"2.0","id":6,"result":{},"error":{"code":1,"message":"x"}}` + "\n",
			[]string{invalid("6", "invalid response: it has both a result and an error")}},
		{"response without id", `{"jsonrpc":"2.0","result":{}}` + "\n",
			[]string{invalid("null", "invalid response: it has no id")}},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"echo"}` + "\n",
			[]string{invalid("null", "invalid request: id must be an integer, a string or null, not 1.5")}},
		{"exponent id", `{"jsonrpc":"2.0","id":1e3,"method":"echo"}` + "\n",
			[]string{invalid("null", "invalid request: id must be an integer, a string or null, not 1e3")}},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"echo"}` + "\n",
			[]string{invalid("null", "invalid request: id must be an integer, a string or null, not true")}},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"echo"}` + "\n",
			[]string{invalid("null", "invalid request: id must be an integer, a string or null, not {}")}},
		{"unknown method", `{"jsonrpc":"2.0","id":7,"method":"nope"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"method \"nope\" not found"}}`}},
		{"wrong param type", `{"jsonrpc":"2.0","id":8,"method":"add","params":{"a":"x","b":2}}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"invalid params: field \"a\" must be an integer, not a string"}}`}},
		{"fractional param", `{"jsonrpc":"2.0","id":9,"method":"add","params":{"a":1.5}}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"invalid params: field \"a\" must be an integer, not the number 1.5"}}`}},
		{"params array for object", `{"jsonrpc":"2.0","id":10,"method":"add","params":[1,2]}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":10,"error":{"code":-32602,"message":"invalid params: params must be an object, not an array"}}`}},
		{"missing params", `{"jsonrpc":"2.0","id":11,"method":"add"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":11,"result":{"sum":0}}`}},
		{"unknown fields ignored", `{"jsonrpc":"2.0","id":12,"method":"add","params":{"a":1,"b":2,"c":"x"}}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":12,"result":{"sum":3}}`}},
		{"unknown notification", `{"jsonrpc":"2.0","method":"nope","params":{}}` + "\n", nil},
		{"peer error with id null", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` + "\n", nil},
		{"response to unknown id", `{"jsonrpc":"2.0","id":99,"result":{}}` + "\n", nil},
		{"response with negative id", `{"jsonrpc":"2.0","id":-1,"result":null}` + "\n", nil},
		{"response with string id", `{"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"m"}}` + "\n", nil},
		{"blank lines and crlf", "\n\r\n   \t\n" + `{"jsonrpc":"2.0","id":13,"method":"echo","params":[1]}` + "\r\n",
			[]string{`{"jsonrpc":"2.0","id":13,"result":[1]}`}},
		{"panic", `{"jsonrpc":"2.0","id":14,"method":"panic"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":14,"error":{"code":-32603,"message":"internal error while handling panic"}}`}},
		{"nil pointer result", `{"jsonrpc":"2.0","id":15,"method":"nilptr"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":15,"result":{}}`}},
		{"nil map result", `{"jsonrpc":"2.0","id":16,"method":"nilmap"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":16,"result":{}}`}},
		{"nil slice result", `{"jsonrpc":"2.0","id":17,"method":"nilslice"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":17,"result":{}}`}},
		{"null params echo", `{"jsonrpc":"2.0","id":18,"method":"echo","params":null}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":18,"result":{}}`}},
		{"error with data", `{"jsonrpc":"2.0","id":19,"method":"notfound"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":19,"error":{"code":-32002,"message":"session not found","data":{"sessionId":"s1"}}}`}},
		{"wrapped error", `{"jsonrpc":"2.0","id":20,"method":"wrapped"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":20,"error":{"code":-32000,"message":"log in first"}}`}},
		{"plain error", `{"jsonrpc":"2.0","id":21,"method":"plainerr"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":21,"error":{"code":-32603,"message":"disk on fire"}}`}},
		{"cancelled error", `{"jsonrpc":"2.0","id":22,"method":"cancelled"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":22,"error":{"code":-32800,"message":"request cancelled: model: context canceled"}}`}},
		{"$/cancel_request for unknown id", `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":12345}}` + "\n", nil},
		{"line over the limit", strings.Repeat("x", 40<<20) + "\n",
			[]string{invalid("null", "message too large: the limit is 33554432 bytes")}},
		{"json line over the limit", `{"jsonrpc":"2.0","id":23,"method":"echo","params":"` + strings.Repeat("x", 40<<20) + "\"}\n",
			[]string{invalid("null", "message too large: the limit is 33554432 bytes")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, p := serveRaw(t, testMux(t), Options{})
			p.send(tt.in)
			for _, w := range tt.want {
				p.expect(w)
			}
			p.sendMsg(afterReq)
			p.expect(afterResp)
		})
	}
}

func TestIDsEchoedExactly(t *testing.T) {
	ids := []string{
		`0`, `1`, `-1`, `-7`, `9223372036854775807`, `-9223372036854775808`,
		`18446744073709551616`, `"abc"`, `""`, `"a\u00e9\n"`, `"in-1"`, `null`,
	}
	_, p := serveRaw(t, testMux(t), Options{})
	for _, id := range ids {
		p.sendMsg(`{"jsonrpc":"2.0","id":` + id + `,"method":"echo","params":{"x":1}}`)
		got := p.next()
		checkJSON(t, got, `{"jsonrpc":"2.0","id":`+id+`,"result":{"x":1}}`)
		if raw := rawField(t, got, "id"); raw != id {
			t.Errorf("id %s echoed as %s", id, raw)
		}
	}
}

func TestTranscriptContentLength(t *testing.T) {
	frame := func(body string) string {
		return "Content-Length: " + itoa(len(body)) + "\r\n\r\n" + body
	}
	tests := []struct {
		name string
		max  int
		in   string
		want []string
	}{
		{"good", 0, frame(`{"jsonrpc":"2.0","id":1,"method":"echo","params":[true]}`),
			[]string{`{"jsonrpc":"2.0","id":1,"result":[true]}`}},
		{"other headers and lower case", 0,
			"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 51\r\n\r\n" +
				`{"jsonrpc":"2.0","id":2,"method":"echo","params":3}`,
			[]string{`{"jsonrpc":"2.0","id":2,"result":3}`}},
		{"bare newlines", 0, "Content-Length: 42\n\n" + `{"jsonrpc":"2.0","id":3,"method":"nilptr"}`,
			[]string{`{"jsonrpc":"2.0","id":3,"result":{}}`}},
		{"blank lines between messages", 0, "\r\n\r\n" + frame(`{"jsonrpc":"2.0","id":4,"method":"nilmap"}`),
			[]string{`{"jsonrpc":"2.0","id":4,"result":{}}`}},
		{"truncated body then next message", 0, "Content-Length: 5\r\n\r\n{\"jso",
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: *"}}`}},
		{"bad length value", 0, "Content-Length: abc\r\n\r\n{}",
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"invalid message header: bad Content-Length \"abc\""}}`}},
		{"negative length", 0, "Content-Length: -5\r\n\r\n{}",
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"invalid message header: bad Content-Length \"-5\""}}`}},
		{"missing length", 0, "Content-Type: x\r\n\r\n{}",
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"invalid message header: no Content-Length header"}}`}},
		{"malformed header line", 0, "garbage\r\n",
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"invalid message header: malformed header line \"garbage\""}}`}},
		{"newline json sent to a content-length conn", 0, `{"jsonrpc":"2.0","id":1,"method":"echo"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"invalid message header: malformed header line *"}}`}},
		{"header line too long", 0, "X-Long: " + strings.Repeat("y", 5000) + "\r\n\r\n",
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"invalid message header: header line longer than 1024 bytes"}}`}},
		{"length over the limit", 100, frame(`{"jsonrpc":"2.0","id":4,"method":"echo","params":"` + strings.Repeat("z", 200) + `"}`),
			[]string{invalid("null", "message too large: the limit is 100 bytes")}},
		{"invalid request", 0, frame(`[1]`), []string{invalid("null", "invalid request: batches are not supported")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, p := serveRaw(t, testMux(t), Options{Framing: ContentLength, MaxMessageBytes: tt.max})
			p.send(tt.in)
			for _, w := range tt.want {
				p.expect(w)
			}
			p.sendMsg(afterReq)
			p.expect(afterResp)
		})
	}
}
