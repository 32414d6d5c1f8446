package gemini

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// adcToken is the access token the fake token endpoint issues.
const adcToken = "adc-token"

// fakeADC points Google's application-default credentials at a service
// account file whose token_uri is a token endpoint on 127.0.0.1, as
// genai's own tests point GOOGLE_APPLICATION_CREDENTIALS at a file, and
// clears the variables genai reads itself, so the test is hermetic. It
// returns the number of tokens issued so far. The test cannot be
// parallel (t.Setenv).
func fakeADC(t *testing.T) *atomic.Int32 {
	t.Helper()
	var issued atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil || r.Form.Get("assertion") == "" {
			http.Error(w, "no assertion", http.StatusBadRequest)
			return
		}
		issued.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": adcToken, "token_type": "Bearer", "expires_in": 3600})
	}))
	t.Cleanup(srv.Close)
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	file, err := json.Marshal(map[string]string{
		"type":           "service_account",
		"project_id":     "adc-project",
		"private_key_id": "k1",
		"private_key":    string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		"client_email":   "companion-test@adc-project.iam.gserviceaccount.com",
		"client_id":      "1",
		"token_uri":      srv.URL + "/token",
	})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "adc.json")
	if err := os.WriteFile(path, file, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", path)
	for _, name := range []string{"GOOGLE_API_KEY", "GEMINI_API_KEY", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION",
		"GOOGLE_CLOUD_REGION", "GOOGLE_VERTEX_BASE_URL", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_ENTERPRISE"} {
		t.Setenv(name, "")
	}
	return &issued
}

// captured is one request a capture transport saw.
type captured struct {
	method, url string
	header      http.Header
	body        []byte
}

// capture is an http.RoundTripper that records each request and answers
// it with an empty event stream, so that requests to any host (the
// default Vertex AI endpoints too) are seen without leaving the process.
type capture struct {
	mu   sync.Mutex
	reqs []captured
}

func (c *capture) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		_ = r.Body.Close()
	}
	c.mu.Lock()
	c.reqs = append(c.reqs, captured{method: r.Method, url: r.URL.String(), header: r.Header.Clone(), body: body})
	c.mu.Unlock()
	return &http.Response{
		StatusCode: http.StatusOK, Status: "200 OK", Request: r,
		Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body:   io.NopCloser(strings.NewReader("")),
	}, nil
}

// take returns the requests seen since the last take.
func (c *capture) take() []captured {
	c.mu.Lock()
	defer c.mu.Unlock()
	reqs := c.reqs
	c.reqs = nil
	return reqs
}
