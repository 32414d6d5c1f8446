package mcp

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"companion/tools"
)

// listResourcesName is the model-facing name of the resource lister.
const listResourcesName = "list_mcp_resources"

// listPage is how many resources one list_mcp_resources call shows.
const listPage = 50

//go:embed descriptions/list_resources.md
var listResourcesDescription string

// listResourcesParams are list_mcp_resources' parameters.
type listResourcesParams struct {
	Server string `json:"server,omitempty" desc:"Only this MCP server's resources; every server's when empty."`
	Offset int    `json:"offset,omitempty" desc:"How many resources to skip: the offset a previous page's result gave."`
}

// listResourcesTool lets the model see the resources MCP servers offer.
type listResourcesTool struct{ m *Manager }

// newListResourcesTool returns list_mcp_resources over m's servers.
func newListResourcesTool(m *Manager) tools.Tool {
	t := &listResourcesTool{m: m}
	return tools.Define(tools.Def[listResourcesParams]{
		Name: listResourcesName, Kind: tools.KindRead,
		Description: listResourcesDescription,
		Prepare:     t.prepare,
	})
}

func (t *listResourcesTool) prepare(_ *tools.Env, p listResourcesParams) (tools.Invocation, error) {
	if p.Offset < 0 {
		return nil, fmt.Errorf("%w: offset must not be negative", tools.ErrInvalidArgs)
	}
	if p.Server != "" {
		if err := t.m.knownServer(p.Server); err != nil {
			return nil, err
		}
	}
	return &listResourcesCall{m: t.m, p: p}, nil
}

// listResourcesCall is one list_mcp_resources call.
type listResourcesCall struct {
	m *Manager
	p listResourcesParams
}

func (c *listResourcesCall) Title() string {
	if c.p.Server != "" {
		return fmt.Sprintf("List the resources of the %s MCP server", c.p.Server)
	}
	return "List MCP resources"
}

func (c *listResourcesCall) Locations() []tools.Location { return nil }

// Confirmation is nil: listing resources changes nothing.
func (c *listResourcesCall) Confirmation(context.Context) (*tools.Confirmation, error) {
	return nil, nil
}

// Execute lists the resources, sorted by server then URI so pages are
// stable, and shows one page. A server that failed is named in the result;
// the others' resources are still listed.
func (c *listResourcesCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	all, err := c.m.ListResources(ctx)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if c.p.Server != "" {
		all = slices.DeleteFunc(all, func(r Resource) bool { return r.Server != c.p.Server })
	}
	slices.SortFunc(all, func(a, b Resource) int {
		return cmp.Or(strings.Compare(a.Server, b.Server), strings.Compare(a.URI, b.URI))
	})
	text := resourcePage(all, c.p.Offset)
	if err != nil {
		text += "\n\nSome servers could not list their resources: " + err.Error()
	}
	return &tools.Result{Text: text}, nil
}

// resourcePage renders the page of rs that starts at offset, saying how to
// get the next one.
func resourcePage(rs []Resource, offset int) string {
	switch {
	case len(rs) == 0:
		return "No MCP server offers resources."
	case offset >= len(rs):
		return fmt.Sprintf("There are %d resources; offset %d is past the end.", len(rs), offset)
	}
	end := min(offset+listPage, len(rs))
	var b strings.Builder
	fmt.Fprintf(&b, "Resources %d-%d of %d (server | uri | name | type | size | description):\n", offset+1, end, len(rs))
	for _, r := range rs[offset:end] {
		size := "size unknown"
		if r.Size >= 0 {
			size = fmt.Sprintf("%d bytes", r.Size)
		}
		fmt.Fprintf(&b, "- %s | %s | %s | %s | %s | %s\n", r.Server, r.URI, oneLine(r.Name), cmp.Or(r.MIMEType, "type unknown"), size, oneLine(r.Description))
	}
	if end < len(rs) {
		fmt.Fprintf(&b, "%d more: call list_mcp_resources again with offset %d.", len(rs)-end, end)
	}
	return strings.TrimRight(b.String(), "\n")
}
