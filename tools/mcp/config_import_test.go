package mcp

import (
	"testing"
	"time"
)

// TestParseClaudeMCPJSON: the servers of Claude Code's .mcp.json (type,
// url, headers, command, args, env) and Gemini CLI's extra fields parse
// into the transports and limits they mean.
func TestParseClaudeMCPJSON(t *testing.T) {
	raw := []byte(`{
	  "api":   {"type": "http", "url": "https://api.example/mcp", "headers": {"Authorization": "Bearer t"}},
	  "feed":  {"type": "sse", "url": "https://feed.example/sse"},
	  "local": {"type": "stdio", "command": "npx", "args": ["-y", "srv"], "env": {"K": "V"}, "cwd": "/w",
	            "timeout": 2500, "trust": true, "includeTools": ["a", "b"], "excludeTools": ["b"]}
	}`)
	servers, err := ParseServers(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(servers) != 3 {
		t.Fatalf("got %+v", servers)
	}
	api, feed, local := servers[0], servers[1], servers[2]
	if api.transport() != TransportHTTP || api.URL != "https://api.example/mcp" || api.Headers["Authorization"] != "Bearer t" {
		t.Errorf("api = %+v", api)
	}
	if feed.transport() != TransportSSE || feed.URL != "https://feed.example/sse" {
		t.Errorf("feed = %+v", feed)
	}
	if local.transport() != TransportStdio || local.Env["K"] != "V" || local.Cwd != "/w" || local.timeout() != 2500*time.Millisecond || !local.Trust {
		t.Errorf("local = %+v", local)
	}
	for tool, keep := range map[string]bool{"a": true, "b": false, "c": false} {
		if local.keepTool(tool) != keep {
			t.Errorf("keepTool(%s) = %v", tool, !keep)
		}
	}
}
