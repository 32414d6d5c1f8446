package websearch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"companion/tools"
)

func TestCite(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		supports []Support
		want     string
	}{
		{"none", "plain", nil, "plain"},
		{"one", "Go is fast. It compiles.", []Support{{0, 11, []int{0}}}, "Go is fast.[1] It compiles."},
		{"two at one end, sorted, no repeats", "abc", []Support{{0, 3, []int{2, 0}}, {1, 3, []int{0}}}, "abc[1][3]"},
		{"several spans", "ab cd ef", []Support{{0, 2, []int{0}}, {3, 5, []int{1}}, {6, 8, []int{2}}}, "ab[1] cd[2] ef[3]"},
		{"multi-byte before the mark", "Zürich liegt am See.", []Support{{0, 7, []int{0}}, {8, 21, []int{1}}}, "Zürich[1] liegt am See.[2]"},
		{"an end inside a character moves past it", "日本語です", []Support{{0, 4, []int{0}}}, "日本[1]語です"},
		{"emoji", "ok 👍 yes", []Support{{0, 5, []int{1}}}, "ok 👍[2] yes"},
		{"out of range and bad sources skipped", "abc", []Support{{0, 9, []int{0}}, {0, 2, []int{7, -1}}, {2, 1, []int{0}}}, "abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Cite(tt.text, tt.supports, 3); got != tt.want {
				t.Errorf("Cite = %q, want %q", got, tt.want)
			}
		})
	}
}

// run prepares and executes google_web_search over b.
func run(t *testing.T, b Backend, query string) *tools.Result {
	t.Helper()
	inv, err := Tool(b).Prepare(&tools.Env{}, []byte(fmt.Sprintf(`{"query":%q}`, query)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := inv.Execute(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestToolResult(t *testing.T) {
	b := BackendFunc(func(context.Context, string) (*Answer, error) {
		return &Answer{Text: "Go 1.26 is current.", Sources: []Source{{Title: "Go [blog]", URI: "https://go.dev/blog"}, {Title: "no uri"}},
			Supports: []Support{{0, 19, []int{0}}}}, nil
	})
	res := run(t, b, "go version")
	want := "Web search results for \"go version\":\n\nGo 1.26 is current.[1]\n\nSources:\n[1] Go [blog] (https://go.dev/blog)"
	if res.IsError || res.Text != want {
		t.Errorf("text = %q, want %q", res.Text, want)
	}
	if wantD := "Go 1.26 is current.[1]\n\n**Sources**\n\n1. [Go (blog)](https://go.dev/blog)"; res.Display != wantD {
		t.Errorf("display = %q, want %q", res.Display, wantD)
	}
}

func TestToolErrors(t *testing.T) {
	tests := []struct {
		name string
		b    BackendFunc
		want string
	}{
		{"failure", func(context.Context, string) (*Answer, error) {
			return nil, errors.New("Gemini API quota exhausted\nmore detail")
		}, `The web search for "q" failed: Gemini API quota exhausted.`},
		{"nothing", func(context.Context, string) (*Answer, error) { return &Answer{Text: " "}, nil }, `The web search for "q" found nothing.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if res := run(t, tt.b, "q"); !res.IsError || res.Text != tt.want {
				t.Errorf("result = %+v, want the error %q", res, tt.want)
			}
		})
	}
	if _, err := Tool(BackendFunc(nil)).Prepare(&tools.Env{}, []byte(`{"query":"  "}`)); !errors.Is(err, tools.ErrInvalidArgs) {
		t.Errorf("empty query: %v, want ErrInvalidArgs", err)
	}
}

func TestConfirmationShowsQuery(t *testing.T) {
	inv, err := Tool(BackendFunc(nil)).Prepare(&tools.Env{}, []byte(`{"query":"rust 2024 edition"}`))
	if err != nil {
		t.Fatal(err)
	}
	c, err := inv.Confirmation(context.Background())
	if err != nil || c.Type != tools.ConfirmInfo || !strings.Contains(c.Prompt, "rust 2024 edition") || len(c.URLs) != 0 {
		t.Errorf("confirmation = %+v, %v", c, err)
	}
}

func TestSearXNG(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.String()
		if r.URL.Query().Get("q") == "broken" {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		fmt.Fprint(w, `{"results":[{"title":"A\npage","url":"https://a.example/","content":"first  hit"},{"title":"skip","url":""},
			{"title":"B","url":"https://b.example/","content":"second"}]}`)
	}))
	defer srv.Close()
	b, err := SearXNG(srv.URL+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, b, "what is x")
	if got != "/search?format=json&q=what+is+x" {
		t.Errorf("request = %s", got)
	}
	for _, want := range []string{"- A page: first hit[1]\n- B: second[2]", "[1] A page (https://a.example/)", "[2] B (https://b.example/)"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("result lacks %q:\n%s", want, res.Text)
		}
	}
	if res := run(t, b, "broken"); !res.IsError || !strings.Contains(res.Text, "answered 403 Forbidden (is the json format enabled") {
		t.Errorf("403: %+v", res)
	}
	if _, err := SearXNG("ftp://x", nil); err == nil {
		t.Error("an ftp URL was accepted")
	}
}
