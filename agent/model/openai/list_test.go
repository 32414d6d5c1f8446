package openai

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"companion/agent/model/internal/modeltest"
)

// TestListModels: GET /models answers a sorted list without duplicates or
// empty ids, sent with the key; a failure names the server and the status.
func TestListModels(t *testing.T) {
	t.Parallel()
	p, srv := start(t, modeltest.Parse(t, `{"models": ["o3-mini", "gpt-4.1", "", "gpt-4.1"], "turns": []}`), modeltest.FastRetry(), nil)
	got, err := p.(*Provider).ListModels(context.Background())
	if err != nil || !reflect.DeepEqual(got, []string{"gpt-4.1", "o3-mini"}) {
		t.Errorf("ListModels = %v, %v; want [gpt-4.1 o3-mini]", got, err)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Method != "models" || reqs[0].APIKey != "test-key" {
		t.Errorf("requests = %+v, want one GET /models with the key", reqs)
	}

	down, n := startRaw(t, []rawAnswer{{503, "text/plain", "maintenance"}})
	_, err = down.ListModels(context.Background())
	if err == nil || !strings.Contains(err.Error(), "/v1: HTTP 503 Service Unavailable: maintenance") || n.Load() != 1 {
		t.Errorf("error = %v after %d requests, want HTTP 503 with the body after 1", err, n.Load())
	}
}
