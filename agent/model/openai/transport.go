package openai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"
)

// doer is the go-openai HTTPDoer every request goes through. It adds the
// configured headers, puts back fields go-openai's omitempty tags drop
// (see wireFix), records what a failed response said in the attempt's
// *attemptInfo (go-openai's errors carry no headers), and hides SSE
// comment lines from go-openai's stream reader.
type doer struct {
	client  *http.Client
	headers map[string]string
}

// Do sends req; see doer.
func (d *doer) Do(req *http.Request) (*http.Response, error) {
	for k, v := range d.headers {
		req.Header.Set(k, v)
	}
	if fix, ok := req.Context().Value(fixKey{}).(wireFix); ok && fix.needed() {
		var err error
		if req, err = fix.patch(req); err != nil {
			return nil, err
		}
	}
	res, err := d.client.Do(req)
	if err != nil {
		return nil, err
	}
	if res.StatusCode >= 400 {
		captureFailure(req, res)
		return res, nil
	}
	info, _ := req.Context().Value(infoKey{}).(*attemptInfo)
	res.Body = newCommentFilter(res.Body, info)
	return res, nil
}

// captureFailure records the status, server-given delay and body of an
// error response in the request context's *attemptInfo, so that messages
// do not depend on the body having the OpenAI error shape (vLLM, proxies
// and HTML gateways differ). The body is put back for go-openai to read.
func captureFailure(req *http.Request, res *http.Response) {
	info, ok := req.Context().Value(infoKey{}).(*attemptInfo)
	if !ok {
		return
	}
	info.status = res.StatusCode
	info.delay, info.hasDelay = retryAfter(res.Header, time.Now())
	body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody)) // a partial body still helps
	_ = res.Body.Close()
	info.body = body
	res.Body = io.NopCloser(bytes.NewReader(body))
}

// fixKey is the context key of a request's wireFix.
type fixKey struct{}

// wireFix lists where go-openai's request body would differ from what
// companion means to send: its float and string fields are omitempty, so a
// temperature of 0 (an MCP sampling request may ask for one) and a tool
// message with empty output ("content": "", which the API requires) would
// silently vanish, and a function without parameters would send
// "parameters": null. The doer amends the body in these rare cases only.
type wireFix struct {
	zeroTemperature  bool
	emptyToolContent bool
	noParameters     bool
}

// needed reports whether the body must be amended at all.
func (f wireFix) needed() bool { return f.zeroTemperature || f.emptyToolContent || f.noParameters }

// patch returns req with its JSON body amended.
func (f wireFix) patch(req *http.Request) (*http.Request, error) {
	if req.Body == nil {
		return req, nil
	}
	body, err := io.ReadAll(req.Body)
	_ = req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("openai: reading the request body: %w", err)
	}
	if body, err = f.apply(body); err != nil {
		return nil, fmt.Errorf("openai: amending the request body: %w", err)
	}
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return out, nil
}

// apply amends a marshalled chat completion request.
func (f wireFix) apply(body []byte) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, err
	}
	if f.zeroTemperature {
		m["temperature"] = json.RawMessage("0")
	}
	if f.emptyToolContent {
		err := editEach(m, "messages", func(msg map[string]json.RawMessage) {
			if _, ok := msg["content"]; !ok && string(msg["role"]) == `"tool"` {
				msg["content"] = json.RawMessage(`""`)
			}
		})
		if err != nil {
			return nil, err
		}
	}
	if f.noParameters {
		err := editEach(m, "tools", func(tool map[string]json.RawMessage) {
			var fn map[string]json.RawMessage
			if json.Unmarshal(tool["function"], &fn) != nil || string(fn["parameters"]) != "null" {
				return
			}
			delete(fn, "parameters")
			if raw, err := json.Marshal(fn); err == nil {
				tool["function"] = raw
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return json.Marshal(m)
}

// editEach runs edit on every object of the array m[key] and stores the
// edited array back.
func editEach(m map[string]json.RawMessage, key string, edit func(map[string]json.RawMessage)) error {
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(m[key], &items); err != nil {
		return err
	}
	for _, it := range items {
		edit(it)
	}
	raw, err := json.Marshal(items)
	if err != nil {
		return err
	}
	m[key] = raw
	return nil
}

// commentFilter drops SSE comment lines (": keep-alive", OpenRouter's
// ": OPENROUTER PROCESSING") before go-openai's stream reader, which
// writes every line that is not data into a stream-long error buffer and
// then cannot read an error event that follows. It also keeps the
// last error event in the attempt's *attemptInfo, since go-openai drops
// one whose error is not an object ({"error": "boom"}), and ends a stream
// whose last line has no newline with one, which go-openai would drop.
type commentFilter struct {
	r        *bufio.Reader
	body     io.Closer
	info     *attemptInfo // nil when the request carries none
	pending  []byte
	err      error
	midLine  bool // the last read ended inside a line
	dropping bool // the current line is a comment
}

func newCommentFilter(body io.ReadCloser, info *attemptInfo) *commentFilter {
	// lines up to maxErrorBody come whole, so an error event is kept whole
	return &commentFilter{r: bufio.NewReaderSize(body, maxErrorBody), body: body, info: info}
}

// Read serves the stream without its comment lines.
func (c *commentFilter) Read(p []byte) (int, error) {
	for len(c.pending) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		line, err := c.r.ReadSlice('\n')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			c.err = err
		}
		if !c.midLine {
			c.dropping = len(line) > 0 && line[0] == ':'
			c.noteError(line)
		}
		c.midLine = errors.Is(err, bufio.ErrBufferFull)
		switch {
		case c.dropping:
		case errors.Is(err, io.EOF) && len(line) > 0 && line[len(line)-1] != '\n':
			c.pending = append(slices.Clip(line), '\n') // a copy: line is the reader's buffer
		default:
			c.pending = line // served before the next ReadSlice reuses the buffer
		}
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

// noteError keeps the payload of a "data: {"error"..." line (its start,
// when the line is longer than the reader's buffer).
func (c *commentFilter) noteError(line []byte) {
	if c.info == nil {
		return
	}
	data, ok := bytes.CutPrefix(line, []byte("data:"))
	if data = bytes.TrimSpace(data); ok && bytes.HasPrefix(data, []byte(`{"error"`)) {
		c.info.event = append(c.info.event[:0], data[:min(len(data), maxErrorBody)]...)
	}
}

// Close closes the response body.
func (c *commentFilter) Close() error { return c.body.Close() }
