package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"companion/agent/model"
	"companion/internal/sse"
)

// failure is one failed attempt, classified.
type failure struct {
	err error
	// status is the HTTP status, or the numeric code of an error event
	// inside a stream; 0 when neither.
	status int
	// detail and code are the server's message and error code, if any.
	detail, code string
	// delay is the wait the server asked for, when hasDelay.
	delay    time.Duration
	hasDelay bool
	// conn names a transport failure; "" when it was not one.
	conn string
	// midStream marks an error event sent inside a 200 stream.
	midStream bool
}

// classify reads what is known about a failed attempt: an HTTP answer
// other than 2xx (*statusError), an error event inside a 200 stream
// (*eventError, whose numeric code, when an HTTP status, counts as the
// status), or else a transport failure.
func classify(err error) failure {
	f := failure{err: err}
	var se *statusError
	var ee *eventError
	switch {
	case errors.As(err, &se):
		f.status, f.delay, f.hasDelay = se.status, se.delay, se.hasDelay
		f.detail, f.code = errorDetail(se.body)
	case errors.As(err, &ee):
		f.midStream = true
		f.detail, f.code = errorDetail(ee.data)
		if n, err := strconv.Atoi(f.code); err == nil && n >= 400 && n <= 599 {
			f.status = n
		}
	default:
		f.conn = model.ConnectionProblem(err)
	}
	return f
}

// retryable reports whether the failure is worth repeating: rate limits
// (not an exhausted quota), server errors, and connections that failed.
func (f failure) retryable() bool {
	switch {
	case f.status == http.StatusTooManyRequests:
		return f.code != "insufficient_quota"
	case f.status != 0:
		return f.status == http.StatusRequestTimeout || f.status >= 500
	default:
		return f.conn != ""
	}
}

// finalError turns the last failure into a *model.APIError whose message is
// one sentence the user can act on.
func (p *Provider) finalError(f failure, attempts int, delivered bool, modelName string) error {
	out := &model.APIError{Status: f.status, Attempts: attempts, Err: f.err}
	name := p.name()
	switch {
	case f.midStream:
		out.Message = fmt.Sprintf("The %s reported an error mid-response%s: %s.", name, model.AfterAttempts(attempts), orNoDetail(f.detail))
	case f.status != 0:
		out.Message = p.statusMessage(f, attempts, modelName)
	case delivered && f.conn != "":
		out.Message = fmt.Sprintf("The stream from the %s broke off mid-response: %s.", name, f.conn)
	case f.conn != "":
		out.Message = fmt.Sprintf("Could not reach the %s: %s%s%s.", name, f.conn, model.AfterAttempts(attempts), p.localHint(f))
	case isJSONError(f.err):
		out.Message = fmt.Sprintf("The %s sent a malformed stream event: %s.", name, model.OneLine(f.err.Error()))
	case errors.Is(f.err, sse.ErrTooLong):
		out.Message = fmt.Sprintf("The %s sent a stream line or event over %d bytes, more than companion reads.", name, maxEvent)
	case errors.Is(f.err, errNoEvents):
		out.Message = fmt.Sprintf("The %s answered without any stream events: check that the base URL points at a Chat Completions API.", name)
	default:
		out.Message = fmt.Sprintf("The request to the %s failed: %s.", name, model.OneLine(f.err.Error()))
	}
	return out
}

// isJSONError reports whether err is a stream event that did not decode.
func isJSONError(err error) bool {
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	return errors.As(err, &syntaxErr) || errors.As(err, &typeErr)
}

// statusMessage explains an HTTP error status.
func (p *Provider) statusMessage(f failure, attempts int, modelName string) string {
	name, code := p.name(), f.status
	switch {
	case code == http.StatusUnauthorized && p.cfg.APIKey == "":
		return fmt.Sprintf("%s requires an API key (401), and none is configured.", name)
	case code == http.StatusUnauthorized:
		return fmt.Sprintf("%s rejected the API key (401)%s.", name, withDetail(f.detail))
	case code == http.StatusForbidden:
		return fmt.Sprintf("%s denied access (403)%s: check the API key and its permissions.", name, withDetail(f.detail))
	case code == http.StatusNotFound:
		return fmt.Sprintf("%s does not know model %q (404): check the model name and the base URL (it usually ends in /v1).", name, modelName)
	case code == http.StatusTooManyRequests && f.code == "insufficient_quota":
		return fmt.Sprintf("%s says the quota is exhausted (429): check your plan and billing.", name)
	case code == http.StatusTooManyRequests && f.hasDelay && f.delay > p.retry.MaxServerDelay:
		return fmt.Sprintf("%s is rate-limiting requests (429) and asks to wait %s, so try again later.", name, f.delay)
	case code == http.StatusTooManyRequests:
		return fmt.Sprintf("%s is rate-limiting requests (429) and did not recover after %s.", name, model.Plural(attempts, "attempt"))
	case code >= 500:
		return fmt.Sprintf("%s failed with a server error (%d) after %s%s.", name, code, model.Plural(attempts, "attempt"), withDetail(f.detail))
	default:
		return fmt.Sprintf("%s rejected the request (%d)%s.", name, code, withDetail(f.detail))
	}
}

// name is how messages name the server.
func (p *Provider) name() string {
	return "OpenAI-compatible server at " + p.base
}

// localHint suggests starting a local server that refused the connection.
func (p *Provider) localHint(f failure) string {
	u, err := url.Parse(p.base)
	if err != nil || f.conn != "connection refused" {
		return ""
	}
	switch u.Hostname() {
	case "localhost", "127.0.0.1", "::1":
		return " (is the server running?)"
	}
	return ""
}

// errorDetail finds the message and code in an error body: OpenAI's
// {"error": {"message", "code"}}, {"error": "..."} (Ollama),
// {"message": ...} (older vLLM), {"detail": ...} (FastAPI), or plain text.
func errorDetail(body []byte) (detail, code string) {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
		Code    json.RawMessage `json:"code"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		text := strings.TrimSpace(string(body))
		if strings.HasPrefix(text, "<") { // an HTML error page says nothing useful in one line
			return "", ""
		}
		return model.OneLine(text), ""
	}
	var inner struct {
		Message string          `json:"message"`
		Code    json.RawMessage `json:"code"`
	}
	switch {
	case json.Unmarshal(v.Error, &inner) == nil && (inner.Message != "" || len(inner.Code) > 0):
		return model.OneLine(inner.Message), rawCode(inner.Code)
	case jsonString(string(v.Error)) != "":
		return model.OneLine(jsonString(string(v.Error))), rawCode(v.Code)
	case v.Message != "":
		return model.OneLine(v.Message), rawCode(v.Code)
	case jsonString(string(v.Detail)) != "":
		return model.OneLine(jsonString(string(v.Detail))), ""
	}
	return "", rawCode(v.Code)
}

// rejectedParam is the request parameter an OpenAI error body names as the
// one it rejected (error.param: "temperature" from reasoning models), or "".
func rejectedParam(body []byte) string {
	var v struct {
		Error struct {
			Param string `json:"param"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	return v.Error.Param
}

// rawCode renders an error code that may be a string or a number.
func rawCode(raw json.RawMessage) string {
	if s := jsonString(string(raw)); s != "" {
		return s
	}
	if _, err := strconv.Atoi(string(raw)); err == nil {
		return string(raw)
	}
	return ""
}

// withDetail is ": detail", or "" when there is none.
func withDetail(detail string) string {
	if detail == "" {
		return ""
	}
	return ": " + detail
}

// orNoDetail is detail, or a phrase saying there was none.
func orNoDetail(detail string) string {
	if detail == "" {
		return "no details given"
	}
	return detail
}
