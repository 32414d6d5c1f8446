package gemini

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"

	"google.golang.org/genai"

	"companion/agent/model"
	"companion/internal/sse"
)

// defaultBaseURL is the Gemini Developer API's endpoint; Vertex AI's
// depends on the location and is genai's (vertexEndpoint).
const defaultBaseURL = "https://generativelanguage.googleapis.com/"

// maxEvent bounds one streamed event, as genai's own reader does (256 MiB).
const maxEvent = 256 << 20

// clientHeader names companion's Gemini client in User-Agent and
// x-goog-api-client, the headers Google's SDKs identify themselves by.
func clientHeader() string { return "companion gl-go/" + runtime.Version() }

// endpoint is where a streamGenerateContent request goes and how it is
// authenticated beyond the HTTP client's own credentials.
type endpoint struct {
	base    string // the API's base URL
	version string // v1beta (Gemini API), v1beta1 (Vertex AI)
	apiKey  string // sent as x-goog-api-key when set
	// vertex selects Vertex AI's model names; with project and location
	// set, the model is named under the project's location.
	vertex            bool
	project, location string
}

// geminiEndpoint is the Gemini Developer API's endpoint for cfg.
func geminiEndpoint(cfg Config) endpoint {
	base := cfg.BaseURL
	if base == "" {
		base = defaultBaseURL
	}
	return endpoint{base: base, version: "v1beta", apiKey: cfg.APIKey}
}

// restStream sends one streamGenerateContent request with body to ep and
// calls each for every response it streams back, until each returns
// false, the stream ends or fails. An HTTP error status and an error event
// in the stream are a genai.APIError, as genai returns them, so the retry
// and message code sees one kind of error whichever client made the call.
func (p *Provider) restStream(ctx context.Context, ep endpoint, modelName string, body []byte, each func(*genai.GenerateContentResponse) bool) error {
	req, err := p.restRequest(ctx, ep, modelName, body)
	if err != nil {
		return err
	}
	resp, err := p.http.Do(req)
	if err != nil {
		return fmt.Errorf("gemini: sending request: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 || jsonBody(resp) {
		// A JSON body where a stream belongs is an error a proxy or the
		// API sent with status 200; genai reports its "error" too.
		return statusError(resp)
	}
	events := sse.NewReader(resp.Body, maxEvent)
	for {
		ev, err := events.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("gemini: reading the stream: %w", err)
		}
		model.ReleaseBeforeDecode(len(ev.Data))
		out, err := decodeEvent(ev)
		if err != nil {
			return err
		}
		if !each(out) {
			return nil
		}
	}
}

// restRequest builds the HTTP request as genai builds it for ep: the base
// URL, the API version, the model's resource path, ?alt=sse, the API key
// header when there is a key, and the client headers.
func (p *Provider) restRequest(ctx context.Context, ep endpoint, modelName string, body []byte) (*http.Request, error) {
	name, err := ep.modelPath(modelName)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(ep.base)
	if err != nil {
		return nil, fmt.Errorf("gemini: base URL: %w", err)
	}
	u = u.JoinPath(ep.version, name+":streamGenerateContent")
	u.RawQuery = "alt=sse"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("gemini: building request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", clientHeader())
	req.Header.Set("x-goog-api-client", clientHeader())
	if ep.apiKey != "" {
		req.Header.Set("x-goog-api-key", ep.apiKey)
	}
	if t := serverTimeout(ctx, p.http.Timeout); t > 0 {
		req.Header.Set("x-server-timeout", strconv.FormatInt(int64(math.Ceil(t.Seconds())), 10))
	}
	return req, nil
}

// modelPath is the model's resource path under the API version: Vertex
// AI's publisher model, under the project's location when ep names one,
// or the Gemini API's model name.
func (ep endpoint) modelPath(name string) (string, error) {
	if !ep.vertex {
		return restModel(name)
	}
	path, err := vertexModel(name)
	if err != nil {
		return "", err
	}
	if ep.project != "" && ep.location != "" && !strings.HasPrefix(path, "projects/") {
		path = "projects/" + ep.project + "/locations/" + ep.location + "/" + path
	}
	return path, nil
}

// serverTimeout is the time the request has, from ctx's deadline and the
// client's timeout, whichever is sooner; 0 means no limit. The server is
// told it, as genai tells it.
func serverTimeout(ctx context.Context, client time.Duration) time.Duration {
	t := client
	if deadline, ok := ctx.Deadline(); ok {
		if left := time.Until(deadline); t == 0 || left < t {
			t = left
		}
	}
	return t
}

// streamEvent is one event of the stream: a response, or an error the
// server reports in the stream. responseFields has
// GenerateContentResponse's fields without its methods, so the event
// decodes in one pass.
type streamEvent struct {
	*responseFields
	Error *genai.APIError `json:"error,omitempty"`
}

type responseFields genai.GenerateContentResponse

// decodeEvent decodes one event's JSON straight into genai's response
// type. The Gemini API's response differs from genai's type only in
// candidates' citationMetadata.citationSources (genai: citations), which
// companion does not read.
func decodeEvent(ev sse.Event) (*genai.GenerateContentResponse, error) {
	out := &genai.GenerateContentResponse{}
	e := streamEvent{responseFields: (*responseFields)(out)}
	if err := json.Unmarshal(ev.Data, &e); err != nil {
		return nil, fmt.Errorf("gemini: undecodable stream event (%d bytes): %w", len(ev.Data), err)
	}
	if e.Error != nil {
		return nil, *e.Error
	}
	return out, nil
}

// jsonBody reports a JSON response, which a stream is not.
func jsonBody(resp *http.Response) bool {
	return strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json")
}

// statusError reads an error response into a genai.APIError the way genai
// does: the body's {"error": {...}} when it has one, else the status with
// the body as the message.
func statusError(resp *http.Response) error {
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("gemini: reading the error response (status %d): %w", resp.StatusCode, err)
	}
	if len(body) == 0 {
		return genai.APIError{Code: resp.StatusCode, Status: resp.Status}
	}
	var wrapped struct {
		Error *genai.APIError `json:"error"`
	}
	if json.Unmarshal(body, &wrapped) == nil && wrapped.Error != nil {
		return *wrapped.Error
	}
	return genai.APIError{Code: resp.StatusCode, Status: resp.Status, Message: string(body)}
}
