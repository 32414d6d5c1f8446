package modeltest

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"companion/agent/model"
	"companion/agent/model/scripted"
)

// DelayCase is a failing turn whose server-given delay must be waited
// instead of the backoff.
type DelayCase struct {
	Name    string
	Failure string
}

// ServerDelay runs each case's failure turn, then a good one, through a
// provider that would back off for an hour: the test only finishes if the
// server's delay wins, and one answer must come after two requests.
func ServerDelay(t *testing.T, start Start, modelName string, cases []DelayCase) {
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			t.Parallel()
			p, srv := start(t, Parse(t, `{"turns": [`+tt.Failure+`, {"chunks": [{"text": "recovered"}]}], "fallback": "error"}`), SlowBackoff(), nil)
			chunks, err := Collect(t, context.Background(), p, UserRequest(modelName, "hi"))
			if err != nil {
				t.Fatal(err)
			}
			if got := Text(chunks, false); got != "recovered" {
				t.Errorf("text = %q, want one answer %q", got, "recovered")
			}
			if n := len(srv.Requests()); n != 2 {
				t.Errorf("server saw %d requests, want 2", n)
			}
		})
	}
}

// GiveUpCase is a turn that keeps failing and how the provider must give
// up on it: after Requests requests, with an APIError of Status and
// message Msg, in which {base} stands for the server's URL.
type GiveUpCase struct {
	Name, Turn string
	Requests   int
	Status     int
	Msg        string
}

// GivesUp runs each case with quick retries and checks the final error.
func GivesUp(t *testing.T, start Start, modelName string, cases []GiveUpCase) {
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			t.Parallel()
			p, srv := start(t, Parse(t, `{"turns": [`+tt.Turn+`], "fallback": "error"}`), FastRetry(), nil)
			_, err := Collect(t, context.Background(), p, UserRequest(modelName, "hi"))
			ae := APIError(t, err)
			if ae.Status != tt.Status || ae.Attempts != tt.Requests {
				t.Errorf("APIError status %d attempts %d, want %d and %d", ae.Status, ae.Attempts, tt.Status, tt.Requests)
			}
			if want := strings.ReplaceAll(tt.Msg, "{base}", srv.URL()); ae.Error() != want {
				t.Errorf("message:\n got %q\nwant %q", ae.Error(), want)
			}
			if n := len(srv.Requests()); n != tt.Requests {
				t.Errorf("server saw %d requests, want %d", n, tt.Requests)
			}
		})
	}
}

// CancelDuringHangingStream cancels the context once a hanging stream has
// sent its text: the stream must end with an error wrapping
// context.Canceled, after one request.
func CancelDuringHangingStream(t *testing.T, start Start, modelName string) {
	p, srv := start(t, Parse(t, `{"turns": [{"chunks": [{"text": "partial"}], "hang": true}], "fallback": "error"}`), FastRetry(), nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		var last error
		for c, err := range p.Stream(ctx, UserRequest(modelName, "hi")) {
			if err != nil {
				last = err
				continue
			}
			if Text([]*model.Chunk{c}, false) == "partial" {
				cancel()
			}
		}
		done <- last
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error = %v, want one wrapping context.Canceled", err)
		}
	case <-time.After(Deadline):
		t.Fatal("the stream did not end after its context was cancelled")
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("server saw %d requests, want 1", n)
	}
}

// CancelDuringBackoff cancels the context while the provider waits an hour
// to retry a server error: the stream must end with an error wrapping
// context.Canceled, after one request.
func CancelDuringBackoff(t *testing.T, start Start, modelName string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The logger cancels as soon as the provider announces a retry, which
	// it does just before waiting an hour.
	p, srv := start(t, Parse(t, `{"turns": [{"status": 500, "times": 10}]}`), SlowBackoff(), slog.New(cancelOnRetry{cancel}))
	_, err := Collect(t, ctx, p, UserRequest(modelName, "hi"))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want one wrapping context.Canceled", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("server saw %d requests, want 1", n)
	}
}

// cancelOnRetry is a slog handler that cancels a context on the retry log.
type cancelOnRetry struct{ cancel context.CancelFunc }

func (h cancelOnRetry) Enabled(context.Context, slog.Level) bool { return true }
func (h cancelOnRetry) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h cancelOnRetry) WithGroup(string) slog.Handler            { return h }
func (h cancelOnRetry) Handle(_ context.Context, r slog.Record) error {
	if strings.Contains(r.Message, "retrying") {
		h.cancel()
	}
	return nil
}

// StreamBrokenMidResponse closes the server under a stream that has sent
// its text: the text must come once (no retry may repeat it) after one
// request, and the stream must end with the *model.APIError returned, for
// the caller to check its provider's message.
func StreamBrokenMidResponse(t *testing.T, start Start, modelName string) *model.APIError {
	p, srv := start(t, Parse(t, `{"turns": [{"chunks": [{"text": "partial"}], "hang": true}], "fallback": "error"}`), FastRetry(), nil)
	var got []string
	var final error
	for c, err := range p.Stream(context.Background(), UserRequest(modelName, "hi")) {
		if err != nil {
			final = err
			continue
		}
		got = append(got, Text([]*model.Chunk{c}, false))
		srv.Close() // cut the connection under the open stream
	}
	if len(got) != 1 || got[0] != "partial" {
		t.Errorf("chunks = %q, want just %q (no retry may repeat text)", got, "partial")
	}
	ae := APIError(t, final)
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("server saw %d requests, want 1", n)
	}
	return ae
}

// FinishCase is a turn and the finish the provider must map it to: Want,
// with a message containing MsgHas (no message when MsgHas is empty).
type FinishCase struct {
	Name, Turn string
	Want       model.FinishReason
	MsgHas     string
}

// FinishReasons streams each case's turn and checks the last chunk's
// finish reason and message.
func FinishReasons(t *testing.T, start Start, modelName string, cases []FinishCase) {
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			t.Parallel()
			p, _ := start(t, Parse(t, `{"turns": [`+tt.Turn+`], "fallback": "error"}`), FastRetry(), nil)
			chunks, err := Collect(t, context.Background(), p, UserRequest(modelName, "hi"))
			if err != nil {
				t.Fatal(err)
			}
			reason, msg := LastFinish(chunks)
			if reason != tt.Want {
				t.Errorf("finish = %q, want %q", reason, tt.Want)
			}
			if !strings.Contains(msg, tt.MsgHas) || (tt.MsgHas == "") != (msg == "") {
				t.Errorf("finish message = %q, want one containing %q", msg, tt.MsgHas)
			}
		})
	}
}

// InvalidToolSchema checks that a tool whose parameters are not JSON fails
// the stream before any request is sent.
func InvalidToolSchema(t *testing.T, start Start, modelName string) {
	p, srv := start(t, nil, FastRetry(), nil)
	req := UserRequest(modelName, "hi")
	req.Tools = []model.ToolDecl{{Name: "broken", Parameters: json.RawMessage(`{"type":`)}}
	if _, err := Collect(t, context.Background(), p, req); err == nil {
		t.Fatal("a tool with invalid JSON parameters was sent")
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("server saw %d requests, want 0", n)
	}
}

// GoldenRequest sends req once and compares the indented JSON body the
// server received with testdata/request.golden.json, rewriting the file
// first when update is set (the -update flag). It returns the recorded
// request for further checks.
func GoldenRequest(t *testing.T, start Start, req *model.Request, update bool) scripted.Recorded {
	p, srv := start(t, Parse(t, `{"turns": [{"chunks": [{"text": "ok"}]}], "fallback": "error"}`), FastRetry(), nil)
	if _, err := Collect(t, context.Background(), p, req); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("server saw %d requests, want 1", len(reqs))
	}
	got, err := json.MarshalIndent(reqs[0].Body, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "request.golden.json")
	if update {
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != string(got)+"\n" {
		t.Errorf("request body differs from %s (rerun with -update after checking):\n%s", golden, got)
	}
	return reqs[0]
}
