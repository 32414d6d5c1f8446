package mcp

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

func TestParseServers(t *testing.T) {
	tests := []struct {
		name, raw string
		want      []ServerConfig
		wantErr   bool
	}{
		{name: "empty", raw: ``},
		{name: "null", raw: `null`},
		{name: "stdio", raw: `{"git": {"command": "uvx", "args": ["mcp-server-git"], "env": {"A": "1"}, "cwd": "/w",
			"timeout": 1500, "trust": true, "includeTools": ["a"], "excludeTools": ["b"]}}`,
			want: []ServerConfig{{Name: "git", Command: "uvx", Args: []string{"mcp-server-git"}, Env: map[string]string{"A": "1"},
				Cwd: "/w", Transport: TransportStdio, Timeout: 1500 * time.Millisecond, Trust: true,
				IncludeTools: []string{"a"}, ExcludeTools: []string{"b"}}}},
		{name: "sorted, url is sse, httpUrl is http", raw: `{"z": {"url": "http://h/sse", "headers": {"K": "v"}}, "a": {"httpUrl": "http://h/mcp"}}`,
			want: []ServerConfig{
				{Name: "a", URL: "http://h/mcp", Transport: TransportHTTP},
				{Name: "z", URL: "http://h/sse", Headers: map[string]string{"K": "v"}, Transport: TransportSSE},
			}},
		{name: "type http with url", raw: `{"w": {"url": "http://h/mcp", "type": "http"}}`,
			want: []ServerConfig{{Name: "w", URL: "http://h/mcp", Transport: TransportHTTP}}},
		{name: "neither command nor url", raw: `{"x": {"args": ["a"]}}`, wantErr: true},
		{name: "unknown type", raw: `{"x": {"url": "http://h", "type": "ws"}}`, wantErr: true},
		{name: "negative timeout", raw: `{"x": {"command": "c", "timeout": -1}}`, wantErr: true},
		{name: "not an object", raw: `[1]`, wantErr: true},
		{name: "sse without url", raw: `{"x": {"command": "c", "type": "sse"}}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseServers([]byte(tt.raw))
			if tt.wantErr {
				if !errors.Is(err, ErrBadConfig) {
					t.Fatalf("err = %v, want ErrBadConfig", err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ParseServers = %+v, %v\nwant %+v", got, err, tt.want)
			}
		})
	}
}

func TestKeepTool(t *testing.T) {
	tests := []struct {
		include, exclude []string
		tool             string
		want             bool
	}{
		{tool: "a", want: true},
		{include: []string{"a"}, tool: "a", want: true},
		{include: []string{"a"}, tool: "b", want: false},
		{exclude: []string{"a"}, tool: "a", want: false},
		{include: []string{"a"}, exclude: []string{"a"}, tool: "a", want: false},
	}
	for _, tt := range tests {
		c := ServerConfig{IncludeTools: tt.include, ExcludeTools: tt.exclude}
		if got := c.keepTool(tt.tool); got != tt.want {
			t.Errorf("keepTool(%q) with include %v exclude %v = %v", tt.tool, tt.include, tt.exclude, got)
		}
	}
}

func TestBackoff(t *testing.T) {
	tests := []struct {
		n    int
		want time.Duration
	}{{1, time.Second}, {2, 2 * time.Second}, {3, 4 * time.Second}, {5, 16 * time.Second}, {6, 30 * time.Second}, {60, 30 * time.Second}}
	for _, tt := range tests {
		if got := backoff(time.Second, 30*time.Second, tt.n); got != tt.want {
			t.Errorf("backoff(%d) = %s, want %s", tt.n, got, tt.want)
		}
	}
}

func TestDefaults(t *testing.T) {
	c := ServerConfig{Command: "x"}
	if c.timeout() != DefaultTimeout || c.transport() != TransportStdio {
		t.Errorf("timeout %s transport %s", c.timeout(), c.transport())
	}
	if c := (ServerConfig{URL: "http://h"}); c.transport() != TransportHTTP {
		t.Errorf("transport of a url = %s, want http", c.transport())
	}
	o := Options{}.withDefaults()
	if o.MaxRestarts != 5 || o.Backoff != time.Second || o.ConnectTimeout != 30*time.Second || o.ClientName != "companion" {
		t.Errorf("defaults = %+v", o)
	}
}
