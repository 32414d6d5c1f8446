package gemini

import (
	"context"
	"strings"
	"testing"

	"companion/agent/model/internal/modeltest"
)

func TestRetryHonoursServerDelay(t *testing.T) {
	t.Parallel()
	modeltest.ServerDelay(t, start, "gemini-2.5-pro", []modeltest.DelayCase{
		{Name: "RetryInfo detail", Failure: `{"status": 429, "retryDelay": "10ms"}`},
		{Name: "Retry-After header", Failure: `{"status": 503, "retryAfter": "0"}`},
	})
}

func TestRetryGivesUp(t *testing.T) {
	t.Parallel()
	modeltest.GivesUp(t, start, "gemini-2.5-pro", []modeltest.GiveUpCase{
		{Name: "server error", Turn: `{"status": 500, "message": "Internal error encountered.", "times": 10}`, Requests: 3, Status: 500,
			Msg: "Gemini API failed with a server error (500) after 3 attempts: Internal error encountered."},
		{Name: "rate limit", Turn: `{"status": 429, "times": 10}`, Requests: 3, Status: 429,
			Msg: "Gemini API is rate-limiting requests (429) and did not recover after 3 attempts."},
		{Name: "quota exhausted", Turn: `{"status": 429, "retryDelay": "3h", "times": 10}`, Requests: 1, Status: 429,
			Msg: "Gemini API quota is exhausted (429): it asks to wait 3h0m0s, so try later or check your plan and billing."},
		{Name: "bad request", Turn: `{"status": 400, "message": "Invalid JSON payload received.", "times": 10}`, Requests: 1, Status: 400,
			Msg: "Gemini API rejected the request (400): Invalid JSON payload received."},
		{Name: "key invalid", Turn: `{"status": 400, "message": "API key not valid. Please pass a valid API key.", "times": 10}`, Requests: 1, Status: 400,
			Msg: "Gemini API rejected the API key (400): check GEMINI_API_KEY."},
		{Name: "unknown model", Turn: `{"status": 404, "times": 10}`, Requests: 1, Status: 404,
			Msg: `Gemini API does not know model "gemini-2.5-pro" (404): check the model name and the base URL.`},
	})
}

func TestWrongAPIKey(t *testing.T) {
	t.Parallel()
	p, srv := start(t, modeltest.Parse(t, `{"apiKey": "the-right-key", "turns": []}`), modeltest.FastRetry(), nil)
	_, err := modeltest.Collect(t, context.Background(), p, modeltest.UserRequest("gemini-2.5-pro", "hi"))
	ae := modeltest.APIError(t, err)
	if want := "Gemini API rejected the API key (403): check GEMINI_API_KEY."; ae.Error() != want || ae.Status != 403 {
		t.Errorf("error = %d %q, want 403 %q", ae.Status, ae.Error(), want)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("server saw %d requests, want 1 (no retry)", n)
	}
}

func TestConnectionRefused(t *testing.T) {
	t.Parallel()
	addr := modeltest.ClosedAddr(t)
	p, err := New(context.Background(), Config{APIKey: "k", BaseURL: "http://" + addr, Retry: modeltest.FastRetry()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = modeltest.Collect(t, context.Background(), p, modeltest.UserRequest("gemini-2.5-pro", "hi"))
	ae := modeltest.APIError(t, err)
	want := "Could not reach the Gemini API at http://" + addr + ": connection refused after 3 attempts."
	if ae.Error() != want || ae.Status != 0 || ae.Attempts != 3 {
		t.Errorf("error = %q (status %d, attempts %d), want %q after 3 attempts", ae.Error(), ae.Status, ae.Attempts, want)
	}
}

func TestCancelDuringHangingStream(t *testing.T) {
	t.Parallel()
	modeltest.CancelDuringHangingStream(t, start, "gemini-2.5-pro")
}

func TestCancelDuringBackoff(t *testing.T) {
	t.Parallel()
	modeltest.CancelDuringBackoff(t, start, "gemini-2.5-pro")
}

func TestStreamBrokenMidResponse(t *testing.T) {
	t.Parallel()
	ae := modeltest.StreamBrokenMidResponse(t, start, "gemini-2.5-pro")
	if !strings.HasPrefix(ae.Error(), "The Gemini API stream broke off mid-response") {
		t.Errorf("error = %q, want a broken-stream message", ae.Error())
	}
}
