package websearch

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// searxResults is how many of a SearXNG search's results an answer shows.
const searxResults = 8

// searxBody caps the JSON read from a SearXNG instance.
const searxBody = 4 << 20

// SearXNG searches through a SearXNG instance's JSON API (its settings
// must enable the json format). The answer lists the top results, each
// line supported by its own page. client nil is http.DefaultClient.
func SearXNG(base string, client *http.Client) (Backend, error) {
	u, err := url.Parse(strings.TrimRight(base, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("webSearch.searxng: %q is not an http(s) URL", base)
	}
	if client == nil {
		client = http.DefaultClient
	}
	return BackendFunc(func(ctx context.Context, query string) (*Answer, error) {
		return searx(ctx, client, u, query)
	}), nil
}

// searxResponse is what the tool reads of SearXNG's JSON.
type searxResponse struct {
	Results []struct {
		Title   string `json:"title"`
		URL     string `json:"url"`
		Content string `json:"content"`
	} `json:"results"`
}

// searx runs one query against base.
func searx(ctx context.Context, client *http.Client, base *url.URL, query string) (*Answer, error) {
	u := base.JoinPath("search")
	u.RawQuery = url.Values{"q": {query}, "format": {"json"}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("could not reach the SearXNG instance at %s", base.Host)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the SearXNG instance at %s answered %s (is the json format enabled in its settings?)", base.Host, resp.Status)
	}
	var r searxResponse
	if err := json.NewDecoder(io.LimitReader(resp.Body, searxBody)).Decode(&r); err != nil {
		return nil, fmt.Errorf("the SearXNG instance at %s did not answer in JSON (is the json format enabled in its settings?)", base.Host)
	}
	return searxAnswer(r), nil
}

// searxAnswer lists the top results, one line each, every line supported
// by its page.
func searxAnswer(r searxResponse) *Answer {
	a := &Answer{}
	var b strings.Builder
	for _, res := range r.Results {
		if len(a.Sources) == searxResults {
			break
		}
		if res.URL == "" {
			continue
		}
		start := b.Len()
		fmt.Fprintf(&b, "- %s: %s", oneLine(res.Title), oneLine(res.Content))
		a.Supports = append(a.Supports, Support{Start: start, End: b.Len(), Sources: []int{len(a.Sources)}})
		a.Sources = append(a.Sources, Source{Title: res.Title, URI: res.URL})
		b.WriteByte('\n')
	}
	a.Text = strings.TrimRight(b.String(), "\n")
	return a
}

// oneLine folds text onto one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
