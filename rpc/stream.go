package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
)

// stream is the jsonrpc2.ObjectStream under a Conn. It frames messages,
// validates everything it reads and answers invalid messages itself, so that
// jsonrpc2 only ever sees messages it can represent.
//
// jsonrpc2.ID holds neither null, negative nor large ids, so every incoming
// request id is replaced by a synthetic string id ("in-N") on read, and the
// stream encodes the response itself with the original bytes (WriteObject). Params are
// not passed through jsonrpc2 (which would re-encode them through
// map[string]any): the stream keeps the last request or notification read
// in cur, and the Conn's handler takes it, which is safe because jsonrpc2
// calls the handler synchronously in its read loop, right after ReadObject.
type stream struct {
	rwc     io.ReadWriteCloser
	frames  frameReader
	framing Framing
	log     *slog.Logger
	// redact rewrites outgoing responses and notifications; nil keeps them.
	redact func([]byte) []byte
	// start is closed once the Conn is wired; ReadObject waits for it.
	start chan struct{}
	// drain runs once the input has ended, before jsonrpc2 learns of it, so
	// requests in flight can still answer.
	drain func()

	// cur is the request or notification last returned by ReadObject. Only
	// the read loop goroutine touches it.
	cur message

	// wmu serialises writes to rwc, so frames never interleave.
	wmu sync.Mutex

	// idmu guards seq and ids.
	idmu sync.Mutex
	seq  uint64
	// ids maps the synthetic id of each unanswered request to its raw id
	// and method.
	ids map[uint64]pending
}

// pending is an incoming request not answered yet: its id as the peer
// wrote it, and its method (for the debug log of the response).
type pending struct {
	raw    json.RawMessage
	method string
}

var _ jsonrpc2.ObjectStream = (*stream)(nil)

// synthPrefix starts every synthetic request id; all incoming request ids
// are replaced, so the peer's ids can never collide with these.
const synthPrefix = "in-"

func newStream(rwc io.ReadWriteCloser, o Options) *stream {
	return &stream{
		rwc:     rwc,
		frames:  newFrameReader(o.Framing, rwc, o.MaxMessageBytes),
		framing: o.Framing,
		log:     o.Logger,
		redact:  o.Redact,
		start:   make(chan struct{}),
		ids:     map[uint64]pending{},
	}
}

// ReadObject implements jsonrpc2.ObjectStream. It returns only on a message
// jsonrpc2 should see or on a read error; invalid messages are answered here.
func (s *stream) ReadObject(v any) error {
	<-s.start
	for {
		frame, err := s.frames.next()
		if err != nil {
			if e, ok := errors.AsType[*Error](err); ok {
				s.reply(jsonNull, e)
				continue
			}
			if s.drain != nil {
				s.drain()
			}
			return err
		}
		out, ok := s.accept(frame)
		if !ok {
			continue
		}
		if err := json.Unmarshal(out, v); err != nil {
			s.log.Error("rpc: jsonrpc2 rejected a normalised message", "err", err)
			continue
		}
		return nil
	}
}

// skeleton is what jsonrpc2 sees of a request or notification.
type skeleton struct {
	JSONRPC string `json:"jsonrpc"`
	ID      string `json:"id,omitempty"`
	Method  string `json:"method"`
}

// ownResponse is what jsonrpc2 sees of a response to one of our calls.
type ownResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      uint64          `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *jsonrpc2.Error `json:"error,omitempty"`
}

// accept validates frame and returns the bytes to hand to jsonrpc2, or
// false when the message was answered or dropped here.
func (s *stream) accept(frame []byte) ([]byte, bool) {
	m, e, id := parseMessage(frame)
	if e != nil {
		s.trace("in", "invalid", "", id, len(frame), "code", e.Code)
		s.reply(id, e)
		return nil, false
	}
	s.trace("in", m.kind.String(), m.method, m.id, len(frame))
	if m.kind == kindResponse {
		return s.response(m)
	}
	s.cur = m
	sk := skeleton{JSONRPC: "2.0", Method: m.method}
	if m.kind == kindRequest {
		sk.ID = s.register(m.id, m.method)
	}
	out, err := json.Marshal(sk)
	return out, err == nil
}

// response returns the jsonrpc2 form of a response, or false when its id
// cannot belong to one of our calls.
func (s *stream) response(m message) ([]byte, bool) {
	n, ok := ownID(m.id)
	if !ok {
		if m.err != nil {
			s.log.Warn("rpc: peer sent an error for no request of ours",
				"id", string(m.id), "code", m.err.Code, "message", m.err.Message)
		} else {
			s.log.Debug("rpc: dropping a response with an id we never used", "id", string(m.id))
		}
		return nil, false
	}
	r := ownResponse{JSONRPC: "2.0", ID: n, Result: m.result}
	if m.err != nil {
		r.Error = &jsonrpc2.Error{Code: m.err.Code, Message: m.err.Message}
		if d, ok := m.err.Data.(json.RawMessage); ok {
			r.Error.Data = &d
		}
	}
	out, err := json.Marshal(r)
	return out, err == nil
}

// take returns the request or notification last read and forgets it.
func (s *stream) take() message {
	m := s.cur
	s.cur = message{}
	return m
}

// register records raw and method under a new synthetic id and returns
// that id.
func (s *stream) register(raw json.RawMessage, method string) string {
	s.idmu.Lock()
	defer s.idmu.Unlock()
	s.seq++
	s.ids[s.seq] = pending{raw: raw, method: method}
	return synthPrefix + strconv.FormatUint(s.seq, 10)
}

// WriteObject implements jsonrpc2.ObjectStream. jsonrpc2 writes only our
// requests and the responses to the peer's requests through it
// (notifications go straight to write). Our requests carry ids jsonrpc2
// can hold and go out as it encodes them; a response is decoded into
// outgoing and encoded again by the stream itself, with the id the peer
// wrote in place of the synthetic one.
func (s *stream) WriteObject(obj any) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	var o outgoing
	if err := json.Unmarshal(data, &o); err != nil {
		return err
	}
	if o.Method != "" { // one of our requests
		s.traceOut("request", "", data)
		return s.write(data)
	}
	req, err := s.answered(o.ID)
	if err != nil {
		return err
	}
	data, err = json.Marshal(wireResponse{JSONRPC: "2.0", ID: req.raw, Result: o.Result, Error: o.Error})
	if err != nil {
		return err
	}
	data = s.redacted(data)
	s.traceOut("response", req.method, data)
	return s.write(data)
}

// outgoing is what the stream reads of a message jsonrpc2 writes: a
// request of ours (Method set) or a response under a synthetic id.
type outgoing struct {
	ID     jsonrpc2.ID     `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// wireResponse is a response as the stream writes it: "jsonrpc" first, the
// id with the peer's exact bytes, then the result or the error.
type wireResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
}

// answered returns, and forgets, the request a response with the synthetic
// id answers.
func (s *stream) answered(id jsonrpc2.ID) (pending, error) {
	digits, ok := strings.CutPrefix(id.Str, synthPrefix)
	n, err := strconv.ParseUint(digits, 10, 64)
	if !id.IsString || !ok || err != nil {
		return pending{}, fmt.Errorf("rpc: response with id %s, not one the stream gave", id)
	}
	s.idmu.Lock()
	req, ok := s.ids[n]
	delete(s.ids, n)
	s.idmu.Unlock()
	if !ok {
		return pending{}, fmt.Errorf("rpc: response for an unknown synthetic id %d", n)
	}
	return req, nil
}

// traceOut logs an outgoing request or response at Debug level: its
// method, id, size and, for a response, its error code (0 for a result).
// Only the envelope is read; the body never reaches the log.
func (s *stream) traceOut(kind, method string, data []byte) {
	if !s.log.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	var head struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Error  *struct {
			Code int64 `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(data, &head)
	if method == "" {
		method = head.Method
	}
	if kind != "response" {
		s.trace("out", kind, method, head.ID, len(data))
		return
	}
	code := int64(0)
	if head.Error != nil {
		code = head.Error.Code
	}
	s.trace("out", kind, method, head.ID, len(data), "code", code)
}

// redacted is data after Options.Redact.
func (s *stream) redacted(data []byte) []byte {
	if s.redact == nil {
		return data
	}
	return s.redact(data)
}

// errorReply is a response carrying an error, written by the stream itself.
type errorReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *Error          `json:"error"`
}

// reply answers an invalid message. Write errors are only logged: the read
// loop notices a dead connection on its next read.
func (s *stream) reply(id json.RawMessage, e *Error) {
	data, err := json.Marshal(errorReply{JSONRPC: "2.0", ID: id, Error: e})
	if err == nil {
		s.trace("out", "response", "", id, len(data), "code", e.Code)
		err = s.write(data)
	}
	if err != nil {
		s.log.Debug("rpc: cannot answer an invalid message", "err", err)
	}
}

// write sends one framed message in a single Write.
func (s *stream) write(data []byte) error {
	var buf []byte
	if s.framing == ContentLength {
		buf = make([]byte, 0, len(data)+32)
		buf = append(buf, "Content-Length: "...)
		buf = strconv.AppendInt(buf, int64(len(data)), 10)
		buf = append(buf, "\r\n\r\n"...)
		buf = append(buf, data...)
	} else {
		buf = append(data, '\n')
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_, err := s.rwc.Write(buf)
	return err
}

// Close implements jsonrpc2.ObjectStream.
func (s *stream) Close() error {
	return s.rwc.Close()
}

// trace logs one message at Debug level.
func (s *stream) trace(dir, kind, method string, id json.RawMessage, size int, extra ...any) {
	if !s.log.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	args := []any{"dir", dir, "kind", kind, "bytes", size}
	if method != "" {
		args = append(args, "method", method)
	}
	if id != nil {
		args = append(args, "id", string(id))
	}
	s.log.Debug("rpc message", append(args, extra...)...)
}
