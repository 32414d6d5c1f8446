package openai

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"companion/agent/model"
)

// maxErrorBody bounds how much of an error response is kept for messages.
const maxErrorBody = 64 << 10

// client makes the HTTP requests of the Chat Completions API: it sets the
// key and the configured headers, and reads an error answer into a
// *statusError. It sends each request once; Provider.do retries.
type client struct {
	http    *http.Client
	base    string // without a trailing slash
	apiKey  string
	headers map[string]string
}

// send makes one request to base+path with body (nil for none) and returns
// the response of a 2xx answer, whose body the caller closes. Any other
// answer is read (up to maxErrorBody), closed and returned as a
// *statusError; a transport failure is returned as it is. The request
// ends when ctx does, the response body's reads included.
func (c *client) send(ctx context.Context, method, path string, body []byte, accept string) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", accept)
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	if res.StatusCode/100 == 2 {
		return res, nil
	}
	defer func() { _ = res.Body.Close() }()
	se := &statusError{status: res.StatusCode}
	se.delay, se.hasDelay = retryAfter(res.Header, time.Now())
	se.body, _ = io.ReadAll(io.LimitReader(res.Body, maxErrorBody)) // a partial body still helps
	return nil, se
}

// statusError is an HTTP answer other than 2xx: its status, the delay it
// asked for and the start of its body, kept whole so that messages do not
// depend on the body having OpenAI's error shape (vLLM, proxies and HTML
// gateways differ).
type statusError struct {
	status   int
	body     []byte
	delay    time.Duration
	hasDelay bool
}

func (e *statusError) Error() string {
	msg := fmt.Sprintf("HTTP %d %s", e.status, http.StatusText(e.status))
	if detail, _ := errorDetail(e.body); detail != "" {
		msg += ": " + detail
	}
	return msg
}

// eventError is an error event inside a 200 stream (OpenRouter and vLLM
// send {"error": {...}} when an upstream fails after the headers), with
// the event's data.
type eventError struct {
	data []byte
}

func (e *eventError) Error() string {
	if detail, _ := errorDetail(e.data); detail != "" {
		return "error event in the stream: " + detail
	}
	return "error event in the stream: " + model.OneLine(string(e.data))
}

// retryAfter reads the wait a server asked for: retry-after-ms (OpenAI),
// else Retry-After in seconds or as an HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("retry-after-ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < float64(24*time.Hour/time.Millisecond) {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	return model.ParseRetryAfter(h.Get("Retry-After"), now)
}
