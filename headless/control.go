package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Control errors.
var (
	// errControlTimeout: the SDK did not answer in time.
	errControlTimeout = errors.New("the SDK did not answer in time")
	// errCancelledBySDK: the SDK cancelled a request (its own or ours).
	errCancelledBySDK = errors.New("cancelled")
)

// controlError is an error answer from the SDK.
type controlError struct{ msg string }

func (e *controlError) Error() string { return "the SDK answered with an error: " + e.msg }

// control is the control protocol's bookkeeping: companion's own requests
// waiting for an answer, and the SDK's requests being worked on.
type control struct {
	lines   *lineWriter
	timeout time.Duration
	log     *slog.Logger

	mu      sync.Mutex
	seq     int
	pending map[string]chan controlResult
	working map[string]context.CancelFunc
	wg      sync.WaitGroup
}

// controlResult is the SDK's answer to one of companion's requests.
type controlResult struct {
	response json.RawMessage
	err      error
}

func newControl(lines *lineWriter, timeout time.Duration, log *slog.Logger) *control {
	return &control{lines: lines, timeout: timeout, log: log,
		pending: map[string]chan controlResult{}, working: map[string]context.CancelFunc{}}
}

// request sends a control request to the SDK and waits for its answer, at
// most the control timeout. When ctx ends or time runs out the SDK is told
// with a control_cancel_request and a late answer is ignored.
func (c *control) request(ctx context.Context, subtype string, fields map[string]any) (json.RawMessage, error) {
	ch := make(chan controlResult, 1)
	id := c.send(subtype, fields, ch)
	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	select {
	case res := <-ch:
		return res.response, res.err
	case <-timer.C:
		c.abandon(id)
		return nil, fmt.Errorf("%s: %w (%s)", subtype, errControlTimeout, c.timeout)
	case <-ctx.Done():
		c.abandon(id)
		return nil, fmt.Errorf("%s: %w", subtype, context.Cause(ctx))
	}
}

// post sends a control request whose answer nobody waits for (a
// notification relayed to an SDK-hosted MCP server); the answer is dropped.
func (c *control) post(subtype string, fields map[string]any) { c.send(subtype, fields, nil) }

// send writes a control request under a fresh id; ch, when not nil, waits
// for its answer.
func (c *control) send(subtype string, fields map[string]any, ch chan controlResult) string {
	c.mu.Lock()
	c.seq++
	id := fmt.Sprintf("companion_%d", c.seq)
	if ch != nil {
		c.pending[id] = ch
	}
	c.mu.Unlock()
	body := map[string]any{"subtype": subtype}
	for k, v := range fields {
		body[k] = v
	}
	c.lines.write(map[string]any{"type": typeControlReq, "request_id": id, "request": body})
	return id
}

// abandon forgets a request of companion's and tells the SDK.
func (c *control) abandon(id string) {
	c.mu.Lock()
	_, ok := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if ok {
		c.lines.write(map[string]any{"type": typeControlAbort, "request_id": id})
	}
}

// answered delivers the SDK's control_response to the request waiting for
// it; answers to requests no longer waiting are logged and dropped.
func (c *control) answered(raw json.RawMessage) error {
	var body struct {
		Subtype   string          `json:"subtype"`
		RequestID string          `json:"request_id"`
		Response  json.RawMessage `json:"response"`
		Error     json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &body); err != nil || body.RequestID == "" {
		return errors.New("a control_response needs a response object with a request_id")
	}
	res := controlResult{response: body.Response}
	switch body.Subtype {
	case "success":
		if len(res.response) == 0 {
			res.response = json.RawMessage("{}")
		}
	case "error":
		res.err = &controlError{msg: errorText(body.Error)}
	default:
		res.err = &controlError{msg: fmt.Sprintf("unknown response subtype %q", body.Subtype)}
	}
	c.deliver(body.RequestID, res)
	return nil
}

// deliver hands a result to the request waiting for it, if any.
func (c *control) deliver(id string, res controlResult) {
	c.mu.Lock()
	ch, ok := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if !ok {
		c.log.Debug("control response for no pending request", "request_id", id)
		return
	}
	ch <- res
}

// errorText reads an error given as a string or as {"message": ...}.
func errorText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return s
	}
	var obj struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &obj) == nil && obj.Message != "" {
		return obj.Message
	}
	return "unspecified error"
}

// serve works on one of the SDK's requests in its own goroutine and
// answers it when done. A control_cancel_request for id cancels ctx.
func (c *control) serve(ctx context.Context, id string, work func(ctx context.Context) (any, error)) {
	ctx, cancel := context.WithCancel(ctx)
	c.mu.Lock()
	if _, dup := c.working[id]; dup {
		c.mu.Unlock()
		cancel()
		c.reply(id, nil, fmt.Errorf("request_id %q is already being worked on", id))
		return
	}
	c.working[id] = cancel
	c.wg.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		resp, err := work(ctx)
		if ctx.Err() != nil && err == nil {
			err = errCancelledBySDK
		}
		c.mu.Lock()
		delete(c.working, id)
		c.mu.Unlock()
		cancel()
		c.reply(id, resp, err)
	}()
}

// reply writes the answer to one of the SDK's requests.
func (c *control) reply(id string, resp any, err error) {
	body := controlResponseBody{Subtype: "success", RequestID: id, Response: resp}
	if err != nil {
		body = controlResponseBody{Subtype: "error", RequestID: id, Error: err.Error()}
	} else if resp == nil {
		body.Response = struct{}{}
	}
	c.lines.write(controlResponse{Type: typeControlResp, Response: body})
}

// cancelled handles a control_cancel_request: one of the SDK's requests
// stops, or one of companion's fails.
func (c *control) cancelled(id string) {
	c.mu.Lock()
	cancel, working := c.working[id]
	c.mu.Unlock()
	if working {
		cancel()
		return
	}
	c.deliver(id, controlResult{err: errCancelledBySDK})
}

// wait returns when every SDK request being worked on has been answered.
func (c *control) wait() { c.wg.Wait() }
