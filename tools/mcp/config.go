package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"time"

	"companion/config"
)

// Transport says how companion talks to a server.
type Transport string

// Transports.
const (
	// TransportStdio runs the server as a child process speaking on its
	// stdin and stdout.
	TransportStdio Transport = "stdio"
	// TransportSSE is the older HTTP+SSE transport (a GET event stream and
	// POSTed messages).
	TransportSSE Transport = "sse"
	// TransportHTTP is streamable HTTP.
	TransportHTTP Transport = "http"
	// TransportRelay reaches a server hosted by companion's own client
	// (an SDK) through ServerConfig.Relay.
	TransportRelay Transport = "relay"
)

// DefaultTimeout bounds one tool call when a server sets no Timeout.
const DefaultTimeout = 10 * time.Minute

// ServerConfig is one MCP server as the settings describe it.
type ServerConfig struct {
	// Name identifies the server in tool names, prompts and /mcp.
	Name string
	// Command, Args, Env (added to companion's environment) and Cwd start a
	// stdio server.
	Command string
	Args    []string
	Env     map[string]string
	Cwd     string
	// URL and Headers reach an SSE or streamable HTTP server.
	URL     string
	Headers map[string]string
	// Relay carries the messages of a server hosted by the client; set
	// with TransportRelay.
	Relay Relay
	// Transport is stdio, sse, http or relay. Empty means stdio when
	// Command is set, streamable HTTP when URL is, relay when Relay is.
	Transport Transport
	// Timeout bounds one call (tool, prompt, resource); 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// Trust skips the user's confirmation for this server's tools (in a
	// trusted workspace only).
	Trust bool
	// Sampling is the settings' sampling policy for the server: "",
	// SamplingAsk, SamplingAllow or SamplingDeny; the Sampler applies it.
	Sampling string
	// IncludeTools, when not empty, keeps only the tools named; ExcludeTools
	// drops the tools named and wins over IncludeTools.
	IncludeTools, ExcludeTools []string
	// Unsandboxed asks to run a stdio server outside the command sandbox
	// (settings "sandbox": false); NoNetwork asks a sandboxed one to have
	// no network ("sandboxNetwork": false). They are requests: whoever
	// builds Wrap decides what to honour (the host ignores Unsandboxed for
	// a project's servers).
	Unsandboxed, NoNetwork bool
	// Wrap, when set, rewrites a stdio server's command line (program
	// first) before it starts: the command sandbox. An error refuses the
	// start.
	Wrap func(argv []string) ([]string, error)
	// Gate, when set, lets the stdio server run only while it is open:
	// closing it stops the server's process, and starts are refused until
	// it opens again (a project's servers in a workspace that lost trust).
	Gate *Gate
	// OAuth is the server's oauth settings block (nil: none; OAuth is
	// still discovered when an HTTP or SSE server answers 401).
	OAuth *config.MCPOAuth
}

// transport is the effective transport.
func (c *ServerConfig) transport() Transport {
	switch {
	case c.Transport != "":
		return c.Transport
	case c.Relay != nil:
		return TransportRelay
	case c.Command != "":
		return TransportStdio
	default:
		return TransportHTTP
	}
}

// timeout is the effective per-call timeout.
func (c *ServerConfig) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

// keepTool reports whether the include and exclude lists let tool through.
func (c *ServerConfig) keepTool(tool string) bool {
	if slices.Contains(c.ExcludeTools, tool) {
		return false
	}
	return len(c.IncludeTools) == 0 || slices.Contains(c.IncludeTools, tool)
}

// validate reports what makes the configuration unusable, wrapping
// ErrBadConfig.
func (c *ServerConfig) validate() error {
	if c.Name == "" {
		return fmt.Errorf("%w: a server has no name", ErrBadConfig)
	}
	if c.Transport == "" && c.Command == "" && c.URL == "" && c.Relay == nil {
		return fmt.Errorf("%w: server %q: needs a command or a url", ErrBadConfig, c.Name)
	}
	switch c.transport() {
	case TransportStdio:
		if c.Command == "" {
			return fmt.Errorf("%w: server %q: stdio needs a command", ErrBadConfig, c.Name)
		}
	case TransportSSE, TransportHTTP:
		if c.URL == "" {
			return fmt.Errorf("%w: server %q: %s needs a url", ErrBadConfig, c.Name, c.transport())
		}
	case TransportRelay:
		if c.Relay == nil {
			return fmt.Errorf("%w: server %q: relay needs a relay", ErrBadConfig, c.Name)
		}
	default:
		return fmt.Errorf("%w: server %q: unknown transport %q", ErrBadConfig, c.Name, c.Transport)
	}
	return nil
}

// ParseServers reads the mcpServers object of Gemini CLI's settings: server
// name to {command, args, env, cwd, url, httpUrl, type, headers, timeout
// (milliseconds), trust, includeTools, excludeTools, sandbox,
// sandboxNetwork}. httpUrl means streamable HTTP and url means SSE, unless
// type ("sse", "http") says otherwise. Servers come back sorted by name.
// Errors wrap ErrBadConfig.
func ParseServers(raw json.RawMessage) ([]ServerConfig, error) {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, nil
	}
	var entries map[string]config.MCPServer
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, fmt.Errorf("%w: mcpServers: %w", ErrBadConfig, err)
	}
	names := make([]string, 0, len(entries))
	for name := range entries {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([]ServerConfig, 0, len(names))
	for _, name := range names {
		cfg, err := serverConfig(name, entries[name])
		if err != nil {
			return nil, err
		}
		out = append(out, cfg)
	}
	return out, nil
}

// serverConfig converts one settings entry.
func serverConfig(name string, s config.MCPServer) (ServerConfig, error) {
	cfg := ServerConfig{
		Name: name, Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd,
		Headers: s.Headers, Trust: s.Trust, OAuth: s.OAuth, Sampling: s.Sampling,
		IncludeTools: s.IncludeTools, ExcludeTools: s.ExcludeTools,
		Unsandboxed: s.Sandbox != nil && !*s.Sandbox, NoNetwork: s.SandboxNetwork != nil && !*s.SandboxNetwork,
	}
	if s.Timeout < 0 {
		return cfg, fmt.Errorf("%w: server %q: negative timeout", ErrBadConfig, name)
	}
	cfg.Timeout = time.Duration(s.Timeout * float64(time.Millisecond))
	switch s.Sampling {
	case "", SamplingAsk, SamplingAllow, SamplingDeny:
	default:
		return cfg, fmt.Errorf("%w: server %q: sampling must be %q, %q or %q, not %q", ErrBadConfig, name,
			SamplingAsk, SamplingAllow, SamplingDeny, s.Sampling)
	}
	switch {
	case s.Command != "":
		cfg.Transport = TransportStdio
	case s.HTTPURL != "":
		cfg.URL, cfg.Transport = s.HTTPURL, TransportHTTP
	case s.URL != "":
		cfg.URL, cfg.Transport = s.URL, TransportSSE
	}
	switch s.Type {
	case "":
	case "sse":
		cfg.Transport = TransportSSE
	case "http", "streamable-http", "streamableHttp":
		cfg.Transport = TransportHTTP
	case "stdio":
		cfg.Transport = TransportStdio
	default:
		return cfg, fmt.Errorf("%w: server %q: unknown type %q", ErrBadConfig, name, s.Type)
	}
	return cfg, cfg.validate()
}
