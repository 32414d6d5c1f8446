package mcpclient_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"companion/mcpclient"
)

// silentOnDiscover plays a handshake-era stdio server that never answers
// server/discover (nor anything else it does not know), and records the
// methods the client sent; it closes seen when the client's input ends.
func silentOnDiscover(r io.Reader, w io.Writer, seen chan<- string) {
	defer close(seen)
	in := bufio.NewScanner(r)
	for in.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &msg) != nil {
			continue
		}
		seen <- msg.Method
		if msg.Method == "initialize" {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":%q,"capabilities":{},"serverInfo":{"name":"old","version":"1"}}}`+"\n",
				msg.ID, mcp.LATEST_LEGACY_PROTOCOL_VERSION)
		}
	}
}

// TestDiscoverProbeIsBounded: a stdio server that ignores server/discover
// is spoken to through the handshake once the probe's bound passes.
func TestDiscoverProbeIsBounded(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	seen := make(chan string, 16)
	go silentOnDiscover(inR, outW, seen)
	c := mcpclient.New(mcpclient.NewStdio(outR, inW), mcpclient.WithDiscoverTimeout(100*time.Millisecond))
	// Shorter than mcp-go's own 5 s probe, far longer than the bound: only
	// the bound lets the handshake finish in time.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := c.Initialize(ctx)
	if err != nil || res.ProtocolVersion != mcp.LATEST_LEGACY_PROTOCOL_VERSION || c.ProtocolVersion() != res.ProtocolVersion {
		t.Fatalf("Initialize = %+v, %v; want the handshake's version", res, err)
	}
	_ = c.Close()
	_ = outW.Close()
	var methods []string
	for m := range seen {
		methods = append(methods, m)
	}
	if len(methods) == 0 || methods[0] != "server/discover" || !slices.Contains(methods, "initialize") {
		t.Errorf("methods = %q, want server/discover first, then initialize", methods)
	}
	checkNoGoroutines(t)
}
