package rpc

import (
	"strings"
	"testing"
)

// afterReq is the good request sent after every transcript case, to show
// the connection still serves, and afterResp its answer.
const (
	afterReq  = `{"jsonrpc":"2.0","id":"after","method":"echo","params":{"ok":true}}`
	afterResp = `{"jsonrpc":"2.0","id":"after","result":{"ok":true}}`
)

// invalid returns the -32600 answer with the given raw id and message.
func invalid(id, msg string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,"message":"` + msg + `"}}`
}

// transcriptCase is raw input to a Conn and the exact messages it must
// answer with, before it answers the good request that follows.
type transcriptCase struct {
	name string
	max  int    // Options.MaxMessageBytes
	in   string // raw bytes, framed
	want []string
}

// TestTranscriptNewline drives every error case through newline framing.
func TestTranscriptNewline(t *testing.T) {
	runTranscript(t, Newline, newlineCases())
}

// TestTranscriptContentLength drives framing errors through Content-Length
// framing.
func TestTranscriptContentLength(t *testing.T) {
	runTranscript(t, ContentLength, contentLengthCases())
}

// runTranscript sends each case to a fresh Conn, checks the answers, and
// checks that the Conn still serves a good request afterwards.
func runTranscript(t *testing.T, framing Framing, cases []transcriptCase) {
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			_, p := serveRaw(t, testMux(t), Options{Framing: framing, MaxMessageBytes: tt.max})
			p.send(tt.in)
			for _, w := range tt.want {
				p.expect(w)
			}
			p.sendMsg(afterReq)
			p.expect(afterResp)
		})
	}
}

// newlineCases are the transcript cases for newline framing.
func newlineCases() []transcriptCase {
	return append(envelopeCases(), outcomeCases()...)
}

// envelopeCases are messages rejected before any handler runs.
func envelopeCases() []transcriptCase {
	return []transcriptCase{
		{"bad json", 0, `{"jsonrpc":"2.0","id":1,"method":` + "\n",
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: *"}}`}},
		{"garbage", 0, "hello\n",
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: *"}}`}},
		{"batch", 0, `[{"jsonrpc":"2.0","id":1,"method":"echo"}]` + "\n",
			[]string{invalid("null", "invalid request: batches are not supported")}},
		{"empty batch", 0, "[]\n", []string{invalid("null", "invalid request: batches are not supported")}},
		{"number", 0, "42\n", []string{invalid("null", "invalid request: a message must be a JSON object")}},
		{"null", 0, "null\n", []string{invalid("null", "invalid request: a message must be a JSON object")}},
		{"missing jsonrpc", 0, `{"id":1,"method":"echo"}` + "\n",
			[]string{invalid("1", `invalid request: \"jsonrpc\":\"2.0\" is missing`)}},
		{"wrong jsonrpc", 0, `{"jsonrpc":"1.0","id":2,"method":"echo"}` + "\n",
			[]string{invalid("2", `invalid request: \"jsonrpc\" must be \"2.0\", not \"1.0\"`)}},
		{"numeric jsonrpc", 0, `{"jsonrpc":2.0,"id":"s","method":"echo"}` + "\n",
			[]string{invalid(`"s"`, `invalid request: \"jsonrpc\" must be \"2.0\", not 2.0`)}},
		{"method not a string", 0, `{"jsonrpc":"2.0","id":3,"method":5}` + "\n",
			[]string{invalid("3", "invalid request: method must be a string")}},
		{"no method, result or error", 0, `{"jsonrpc":"2.0","id":4}` + "\n",
			[]string{invalid("4", "invalid request: a message needs a method, a result or an error")}},
		{"method and result", 0, `{"jsonrpc":"2.0","id":5,"method":"echo","result":{}}` + "\n",
			[]string{invalid("5", "invalid request: a message cannot have both a method and a result or error")}},
		{"result and error", 0, `{"jsonrpc":"2.0","id":6,"result":{},"error":{"code":1,"message":"x"}}` + "\n",
			[]string{invalid("6", "invalid response: it has both a result and an error")}},
		{"response without id", 0, `{"jsonrpc":"2.0","result":{}}` + "\n",
			[]string{invalid("null", "invalid response: it has no id")}},
		{"fractional id", 0, `{"jsonrpc":"2.0","id":1.5,"method":"echo"}` + "\n",
			[]string{invalid("null", "invalid request: id must be an integer, a string or null, not 1.5")}},
		{"exponent id", 0, `{"jsonrpc":"2.0","id":1e3,"method":"echo"}` + "\n",
			[]string{invalid("null", "invalid request: id must be an integer, a string or null, not 1e3")}},
		{"bool id", 0, `{"jsonrpc":"2.0","id":true,"method":"echo"}` + "\n",
			[]string{invalid("null", "invalid request: id must be an integer, a string or null, not true")}},
		{"object id", 0, `{"jsonrpc":"2.0","id":{},"method":"echo"}` + "\n",
			[]string{invalid("null", "invalid request: id must be an integer, a string or null, not {}")}},
	}
}

// outcomeCases are requests whose answer comes from routing and handlers,
// and messages that get no answer.
func outcomeCases() []transcriptCase {
	return []transcriptCase{
		{"unknown method", 0, `{"jsonrpc":"2.0","id":7,"method":"nope"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"method \"nope\" not found"}}`}},
		{"wrong param type", 0, `{"jsonrpc":"2.0","id":8,"method":"add","params":{"a":"x","b":2}}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"invalid params: field \"a\" must be an integer, not a string"}}`}},
		{"fractional param", 0, `{"jsonrpc":"2.0","id":9,"method":"add","params":{"a":1.5}}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"invalid params: field \"a\" must be an integer, not the number 1.5"}}`}},
		{"params array for object", 0, `{"jsonrpc":"2.0","id":10,"method":"add","params":[1,2]}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":10,"error":{"code":-32602,"message":"invalid params: params must be an object, not an array"}}`}},
		{"missing params", 0, `{"jsonrpc":"2.0","id":11,"method":"add"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":11,"result":{"sum":0}}`}},
		{"unknown fields ignored", 0, `{"jsonrpc":"2.0","id":12,"method":"add","params":{"a":1,"b":2,"c":"x"}}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":12,"result":{"sum":3}}`}},
		{"unknown notification", 0, `{"jsonrpc":"2.0","method":"nope","params":{}}` + "\n", nil},
		{"peer error with id null", 0, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` + "\n", nil},
		{"response to unknown id", 0, `{"jsonrpc":"2.0","id":99,"result":{}}` + "\n", nil},
		{"response with negative id", 0, `{"jsonrpc":"2.0","id":-1,"result":null}` + "\n", nil},
		{"response with string id", 0, `{"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"m"}}` + "\n", nil},
		{"blank lines and crlf", 0, "\n\r\n   \t\n" + `{"jsonrpc":"2.0","id":13,"method":"echo","params":[1]}` + "\r\n",
			[]string{`{"jsonrpc":"2.0","id":13,"result":[1]}`}},
		{"panic", 0, `{"jsonrpc":"2.0","id":14,"method":"panic"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":14,"error":{"code":-32603,"message":"internal error while handling panic"}}`}},
		{"nil pointer result", 0, `{"jsonrpc":"2.0","id":15,"method":"nilptr"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":15,"result":{}}`}},
		{"nil map result", 0, `{"jsonrpc":"2.0","id":16,"method":"nilmap"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":16,"result":{}}`}},
		{"nil slice result", 0, `{"jsonrpc":"2.0","id":17,"method":"nilslice"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":17,"result":{}}`}},
		{"null params echo", 0, `{"jsonrpc":"2.0","id":18,"method":"echo","params":null}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":18,"result":{}}`}},
		{"error with data", 0, `{"jsonrpc":"2.0","id":19,"method":"notfound"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":19,"error":{"code":-32002,"message":"session not found","data":{"sessionId":"s1"}}}`}},
		{"wrapped error", 0, `{"jsonrpc":"2.0","id":20,"method":"wrapped"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":20,"error":{"code":-32000,"message":"log in first"}}`}},
		{"plain error", 0, `{"jsonrpc":"2.0","id":21,"method":"plainerr"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":21,"error":{"code":-32603,"message":"disk on fire"}}`}},
		{"cancelled error", 0, `{"jsonrpc":"2.0","id":22,"method":"cancelled"}` + "\n",
			[]string{`{"jsonrpc":"2.0","id":22,"error":{"code":-32800,"message":"request cancelled: model: context canceled"}}`}},
		{"$/cancel_request for unknown id", 0, `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":12345}}` + "\n", nil},
		{"line over the limit", 0, strings.Repeat("x", 40<<20) + "\n",
			[]string{invalid("null", "message too large: the limit is 33554432 bytes")}},
		{"json line over the limit", 0, `{"jsonrpc":"2.0","id":23,"method":"echo","params":"` + strings.Repeat("x", 40<<20) + "\"}\n",
			[]string{invalid("null", "message too large: the limit is 33554432 bytes")}},
	}
}

// TestIDsEchoedExactly checks that every id shape JSON-RPC allows comes
// back with its exact bytes, on a result and on an error, and that the
// shapes it does not allow are refused with a null id.
func TestIDsEchoedExactly(t *testing.T) {
	t.Parallel()
	ok := []struct{ name, id string }{
		{"zero", `0`}, {"one", `1`}, {"negative", `-1`}, {"negative zero", `-0`},
		{"int64 max", `9223372036854775807`}, {"int64 min", `-9223372036854775808`},
		{"past uint64", `18446744073709551616`}, {"forty digits", `1234567890123456789012345678901234567890`},
		{"string", `"abc"`}, {"empty string", `""`}, {"escapes", `"a\u00e9\n"`}, {"unicode", `"é✓"`},
		{"synthetic-looking", `"in-1"`}, {"null", `null`},
	}
	_, p := serveRaw(t, testMux(t), Options{})
	for _, c := range ok {
		p.sendMsg(`{"jsonrpc":"2.0","id":` + c.id + `,"method":"echo","params":{"x":1}}`)
		if got, want := string(p.next()), `{"jsonrpc":"2.0","id":`+c.id+`,"result":{"x":1}}`; got != want {
			t.Errorf("%s: result\n got %s\nwant %s", c.name, got, want)
		}
		p.sendMsg(`{"jsonrpc":"2.0","id":` + c.id + `,"method":"no/such"}`)
		if raw := rawField(t, p.next(), "id"); raw != c.id {
			t.Errorf("%s: error answer echoed id %s as %s", c.name, c.id, raw)
		}
	}
	for _, id := range []string{`1.5`, `1e3`, `-0.0`, `true`, `{}`, `[1]`} {
		p.sendMsg(`{"jsonrpc":"2.0","id":` + id + `,"method":"echo"}`)
		checkJSON(t, p.next(), invalid("null", "invalid request: id must be an integer, a string or null, not "+id))
	}
}

// contentLengthCases are the transcript cases for Content-Length framing.
func contentLengthCases() []transcriptCase {
	frame := func(body string) string {
		return "Content-Length: " + itoa(len(body)) + "\r\n\r\n" + body
	}
	return []transcriptCase{
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
}
