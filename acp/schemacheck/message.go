package schemacheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Direction is the way a message travels on the wire.
type Direction int

// The two directions of an ACP connection.
const (
	// ToAgent is a message the client (editor) sends and the agent reads.
	ToAgent Direction = iota + 1
	// ToClient is a message the agent sends and the client reads.
	ToClient
)

// String names the direction for messages: "client→agent" or "agent→client".
func (d Direction) String() string {
	switch d {
	case ToAgent:
		return "client→agent"
	case ToClient:
		return "agent→client"
	}
	return fmt.Sprintf("Direction(%d)", int(d))
}

// Reverse is the direction the answer to a request sent in d travels.
func (d Direction) Reverse() Direction {
	if d == ToAgent {
		return ToClient
	}
	return ToAgent
}

// side is the x-side of requests that travel in d.
func (d Direction) side() string {
	if d == ToAgent {
		return "agent"
	}
	return "client"
}

// Kind is the JSON-RPC shape of a message.
type Kind int

// The JSON-RPC message kinds.
const (
	Request      Kind = iota + 1 // method and id
	Notification                 // method, no id
	Result                       // id and result
	ErrorReply                   // id and error
)

// Message is what Validator.Message learned from a valid line.
type Message struct {
	// Kind is the message's JSON-RPC shape.
	Kind Kind
	// Method is the request's or notification's method; for a response, the
	// method of the request it answers when known.
	Method string
	// ID is the compact JSON text of the id ("" for notifications), the key
	// a Lookup receives.
	ID string
	// Def is the $defs name the params or result was checked against; ""
	// for extension methods, whose payload the schema leaves free.
	Def string
}

// Lookup returns the method of the pending request, sent the other way,
// that the response with this id (compact JSON text) answers.
type Lookup func(id string) (method string, ok bool)

// envelope is a JSON-RPC message with members kept raw; a nil member is
// absent, "null" is present and null.
type envelope struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// Message validates one JSON-RPC line traveling in dir: the envelope
// (jsonrpc "2.0", id a RequestId, result XOR error), then requests and
// notifications by their params definition (absent params count as {}),
// results by the result definition of the method lookup names for the id,
// and errors by #/$defs/Error. Extension methods ("_...") pass with any
// object payload. One leniency: a client's (ToAgent) null result is
// accepted where the result definition requires nothing, as ACP clients
// send null for empty results; the agent must send {}. lookup may be nil
// when no responses are expected. Use a Stream to have lookups tracked.
func (v *Validator) Message(dir Direction, line []byte, lookup Lookup) (Message, error) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return Message{}, fmt.Errorf("schemacheck: %s: want one JSON object per line: %w", dir, ErrEnvelope)
	}
	var env envelope
	if err := json.Unmarshal(line, &env); err != nil {
		return Message{}, fmt.Errorf("schemacheck: %s: %w: %w", dir, ErrEnvelope, err)
	}
	if env.JSONRPC == nil || *env.JSONRPC != "2.0" {
		return Message{}, fmt.Errorf("schemacheck: %s: jsonrpc must be \"2.0\": %w", dir, ErrEnvelope)
	}
	var msg Message
	if env.ID != nil {
		if err := v.Def("RequestId", env.ID); err != nil {
			return Message{}, fmt.Errorf("schemacheck: %s: bad id: %w: %w", dir, ErrEnvelope, err)
		}
		msg.ID = compact(env.ID)
	}
	if env.Method != nil {
		return v.call(dir, env, msg)
	}
	return v.response(dir, env, msg, lookup)
}

// call checks a request or notification.
func (v *Validator) call(dir Direction, env envelope, msg Message) (Message, error) {
	msg.Method, msg.Kind = *env.Method, Notification
	if env.ID != nil {
		msg.Kind = Request
	}
	where := fmt.Sprintf("schemacheck: %s %s", dir, msg.Method)
	if env.Result != nil || env.Error != nil {
		return msg, fmt.Errorf("%s: a call with result or error: %w", where, ErrEnvelope)
	}
	params := env.Params
	if params == nil {
		params = json.RawMessage("{}")
	}
	if strings.HasPrefix(msg.Method, "_") {
		if p := bytes.TrimSpace(params); p[0] != '{' && p[0] != '[' && string(p) != "null" {
			return msg, fmt.Errorf("%s: extension params must be structured: %w", where, ErrEnvelope)
		}
		return msg, nil
	}
	paramsDef, resultDef, ok := v.MethodDefs(dir, msg.Method)
	switch {
	case !ok:
		return msg, fmt.Errorf("%s: %w", where, ErrUnknownMethod)
	case msg.Kind == Request && resultDef == "":
		return msg, fmt.Errorf("%s: a notification sent with an id: %w", where, ErrEnvelope)
	case msg.Kind == Notification && resultDef != "":
		return msg, fmt.Errorf("%s: a request sent without an id: %w", where, ErrEnvelope)
	}
	msg.Def = paramsDef
	if err := v.Def(paramsDef, params); err != nil {
		return msg, fmt.Errorf("%s params: %w", where, err)
	}
	return msg, nil
}

// response checks a result or error reply.
func (v *Validator) response(dir Direction, env envelope, msg Message, lookup Lookup) (Message, error) {
	where := fmt.Sprintf("schemacheck: %s response %s", dir, msg.ID)
	switch {
	case env.ID == nil:
		return msg, fmt.Errorf("%s: neither a method nor an id: %w", where, ErrEnvelope)
	case (env.Result != nil) == (env.Error != nil):
		return msg, fmt.Errorf("%s: needs exactly one of result and error: %w", where, ErrEnvelope)
	}
	known := false
	if lookup != nil {
		msg.Method, known = lookup(msg.ID)
	}
	if env.Error != nil {
		msg.Kind, msg.Def = ErrorReply, "Error"
		if !known && msg.ID != "null" {
			return msg, fmt.Errorf("%s: %w", where, ErrUnmatchedResponse)
		}
		if err := v.Def("Error", env.Error); err != nil {
			return msg, fmt.Errorf("%s error: %w", where, err)
		}
		return msg, nil
	}
	msg.Kind = Result
	if !known {
		return msg, fmt.Errorf("%s: %w", where, ErrUnmatchedResponse)
	}
	return v.result(dir, env.Result, msg)
}

// result checks a result against the method's result definition.
func (v *Validator) result(dir Direction, result json.RawMessage, msg Message) (Message, error) {
	if strings.HasPrefix(msg.Method, "_") {
		return msg, nil
	}
	where := fmt.Sprintf("schemacheck: %s result of %s", dir, msg.Method)
	_, def, ok := v.MethodDefs(dir.Reverse(), msg.Method)
	if !ok || def == "" {
		return msg, fmt.Errorf("%s: %w", where, ErrUnknownMethod)
	}
	msg.Def = def
	if dir == ToAgent && string(bytes.TrimSpace(result)) == "null" && v.required[def] == 0 {
		return msg, nil
	}
	if err := v.Def(def, result); err != nil {
		return msg, fmt.Errorf("%s: %w", where, err)
	}
	return msg, nil
}

// compact returns the compact JSON text of raw, which is valid JSON.
func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}
