package mcp

import (
	"context"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"companion/tools"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// Resource is a resource a server offers.
type Resource struct {
	Server      string
	URI         string
	Name        string
	Description string
	MIMEType    string
	// Size is the content's size in bytes; -1 when the server did not say.
	Size int64
}

// ResourceContent is one part of a resource read: Text for text resources,
// Blob (decoded) for binary ones.
type ResourceContent struct {
	URI      string
	MIMEType string
	Text     string
	Blob     []byte
}

// ListResources lists the resources of every ready server that offers
// resources. A server that fails adds its error to the joined error; the
// resources of the others are still returned.
func (m *Manager) ListResources(ctx context.Context) ([]Resource, error) {
	var out []Resource
	var errs []error
	for _, s := range m.servers {
		if !s.listing().resources {
			continue
		}
		rs, err := s.listResources(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			errs = append(errs, err)
		}
		out = append(out, rs...)
	}
	return out, errors.Join(errs...)
}

// listResources lists the server's resources.
func (s *server) listResources(ctx context.Context) ([]Resource, error) {
	conn, err := s.live()
	if err != nil {
		return nil, err
	}
	callCtx, cancel := context.WithTimeout(ctx, s.cfg.timeout())
	defer cancel()
	res, err := conn.client.ListResources(callCtx)
	if err != nil {
		return nil, callError(conn, fmt.Sprintf("listing the resources of MCP server %q", s.cfg.Name), callCtx, s.cfg.timeout(), err)
	}
	out := make([]Resource, 0, len(res.Resources))
	for _, r := range res.Resources {
		size := int64(-1)
		if r.Size != nil {
			size = *r.Size
		}
		out = append(out, Resource{Server: s.cfg.Name, URI: r.URI, Name: r.Name, Description: r.Description, MIMEType: r.MIMEType, Size: size})
	}
	return out, nil
}

// ReadResource reads the resource uri of server, bounded by the server's
// timeout.
func (m *Manager) ReadResource(ctx context.Context, server, uri string) ([]ResourceContent, error) {
	s, err := m.server(server)
	if err != nil {
		return nil, err
	}
	conn, err := s.live()
	if err != nil {
		return nil, err
	}
	callCtx, cancel := context.WithTimeout(ctx, s.cfg.timeout())
	defer cancel()
	res, err := conn.client.ReadResource(callCtx, uri)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, callError(conn, fmt.Sprintf("reading %s from MCP server %q", uri, server), callCtx, s.cfg.timeout(), err)
	}
	out := make([]ResourceContent, 0, len(res.Contents))
	for _, c := range res.Contents {
		rc, err := decodeContents(c)
		if err != nil {
			return nil, fmt.Errorf("reading %s from MCP server %q: %w", uri, server, err)
		}
		out = append(out, rc)
	}
	return out, nil
}

// decodeContents converts one part of a resource read.
func decodeContents(c mcpgo.ResourceContents) (ResourceContent, error) {
	switch v := c.(type) {
	case mcpgo.TextResourceContents:
		return ResourceContent{URI: v.URI, MIMEType: v.MIMEType, Text: v.Text}, nil
	case *mcpgo.TextResourceContents:
		return decodeContents(*v)
	case mcpgo.BlobResourceContents:
		blob, err := base64.StdEncoding.DecodeString(v.Blob)
		if err != nil {
			return ResourceContent{}, fmt.Errorf("invalid base64 blob: %w", err)
		}
		return ResourceContent{URI: v.URI, MIMEType: v.MIMEType, Blob: blob}, nil
	case *mcpgo.BlobResourceContents:
		return decodeContents(*v)
	default:
		return ResourceContent{}, fmt.Errorf("unknown resource contents %T", c)
	}
}

// readResourceName is the model-facing name of the resource reader.
const readResourceName = "mcp_read_resource"

//go:embed descriptions/read_resource.md
var readResourceDescription string

// readResourceParams are mcp_read_resource's parameters.
type readResourceParams struct {
	Server string `json:"server" required:"true" desc:"The name of the MCP server that offers the resource."`
	URI    string `json:"uri" required:"true" desc:"The resource's URI, exactly as the server gave it."`
}

// readResourceTool lets the model read MCP resources.
type readResourceTool struct{ m *Manager }

// newReadResourceTool returns mcp_read_resource over m's servers.
func newReadResourceTool(m *Manager) tools.Tool {
	t := &readResourceTool{m: m}
	return tools.Define(tools.Def[readResourceParams]{
		Name: readResourceName, Kind: tools.KindRead,
		Description: readResourceDescription,
		Prepare:     t.prepare,
	})
}

func (t *readResourceTool) prepare(_ *tools.Env, p readResourceParams) (tools.Invocation, error) {
	if strings.TrimSpace(p.Server) == "" || strings.TrimSpace(p.URI) == "" {
		return nil, fmt.Errorf("%w: server and uri must not be empty", tools.ErrInvalidArgs)
	}
	if err := t.m.knownServer(p.Server); err != nil {
		return nil, err
	}
	return &readResourceCall{m: t.m, p: p}, nil
}

// knownServer is nil when name is a configured server, else an argument
// error naming the servers there are.
func (m *Manager) knownServer(name string) error {
	if _, err := m.server(name); err != nil {
		return fmt.Errorf("%w: %w (servers: %s)", tools.ErrInvalidArgs, err, strings.Join(m.serverNames(), ", "))
	}
	return nil
}

// readResourceCall is one mcp_read_resource call.
type readResourceCall struct {
	m *Manager
	p readResourceParams
}

func (c *readResourceCall) Title() string {
	return fmt.Sprintf("Read %s (%s MCP server)", c.p.URI, c.p.Server)
}
func (c *readResourceCall) Locations() []tools.Location { return nil }

// Confirmation is nil: reading a resource changes nothing.
func (c *readResourceCall) Confirmation(context.Context) (*tools.Confirmation, error) {
	return nil, nil
}

// Execute reads the resource; failures are error results.
func (c *readResourceCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	contents, err := c.m.ReadResource(ctx, c.p.Server, c.p.URI)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return tools.ErrorResult(err.Error()), nil
	}
	var b resultBuilder
	for _, rc := range contents {
		if rc.Blob != nil {
			b.blob(rc.URI, rc.MIMEType, rc.Blob)
			continue
		}
		b.parts = append(b.parts, fmt.Sprintf("[resource %s]\n%s", rc.URI, rc.Text))
	}
	if len(b.parts) == 0 {
		b.parts = append(b.parts, fmt.Sprintf("[resource %s is empty]", c.p.URI))
	}
	return &tools.Result{Text: strings.Join(b.parts, "\n"), Images: b.images}, nil
}

// serverNames lists the configured servers' names.
func (m *Manager) serverNames() []string {
	names := make([]string, 0, len(m.servers))
	for _, s := range m.servers {
		names = append(names, s.cfg.Name)
	}
	return names
}
