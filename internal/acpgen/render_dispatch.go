package acpgen

import (
	"fmt"
	"strings"
)

// dispatchMethod is one schema method as the dispatch code sees it.
type dispatchMethod struct {
	goName, constName string
	params, result    string // Go types; result "" for a notification
}

// dispatchMethods lists the methods of one side in meta.json order. A
// method whose params type the schema does not define carries raw JSON.
func dispatchMethods(m *model, names ordered[string]) []dispatchMethod {
	defs := findMethodDefs(m)
	var out []dispatchMethod
	for _, key := range names.keys {
		method, _ := names.get(key)
		md := defs[method]
		dm := dispatchMethod{goName: goName(key), constName: "Method" + goName(key),
			params: md.params, result: md.result}
		if dm.params == "" {
			dm.params = "json.RawMessage"
		}
		out = append(out, dm)
	}
	return out
}

// renderDispatch writes the agent-side handler interface with its
// registration, and the typed proxy for the client's methods. The
// interface has one Go method per schema method, so a schema method
// without a handler is a compile error, not a -32601 at run time.
func renderDispatch(m *model) string {
	var b strings.Builder
	agent := dispatchMethods(m, m.meta.AgentMethods)
	b.WriteString("// agentHandler handles every method of agentMethods, one Go method each, so a method\n" +
		"// the schema adds without a handler fails to compile. Requests return their result or an\n" +
		"// error; notifications return nothing.\n")
	b.WriteString("type agentHandler interface {\n")
	for _, dm := range agent {
		if dm.result == "" {
			fmt.Fprintf(&b, "\t%s(ctx context.Context, conn *rpc.Conn, p *%s)\n", dm.goName, dm.params)
			continue
		}
		fmt.Fprintf(&b, "\t%s(ctx context.Context, conn *rpc.Conn, p *%s) (*%s, error)\n", dm.goName, dm.params, dm.result)
	}
	b.WriteString("}\n\n")
	renderRegister(&b, agent)
	renderClientProxy(&b, dispatchMethods(m, m.meta.ClientMethods))
	return b.String()
}

// renderRegister writes registerAgentMethods: every request runs guard
// first, whose error is the answer; notifications go straight to h.
func renderRegister(b *strings.Builder, methods []dispatchMethod) {
	b.WriteString("// registerAgentMethods routes every agent method to h. Before each request\n" +
		"// guard(method) runs, and an error it returns is the answer.\n")
	b.WriteString("func registerAgentMethods(m *rpc.Mux, h agentHandler, guard func(method string) error) {\n")
	for _, dm := range methods {
		if dm.result == "" {
			fmt.Fprintf(b, "\trpc.HandleNotification(m, %s, h.%s)\n", dm.constName, dm.goName)
			continue
		}
		fmt.Fprintf(b, "\tguarded(m, %s, guard, h.%s)\n", dm.constName, dm.goName)
	}
	b.WriteString("}\n\n")
	b.WriteString("// guarded registers a request handler behind guard.\n" +
		"func guarded[P, R any](m *rpc.Mux, method string, guard func(string) error, fn func(context.Context, *rpc.Conn, *P) (*R, error)) {\n" +
		"\trpc.Handle(m, method, func(ctx context.Context, c *rpc.Conn, p *P) (*R, error) {\n" +
		"\t\tif err := guard(method); err != nil {\n\t\t\treturn nil, err\n\t\t}\n" +
		"\t\treturn fn(ctx, c, p)\n\t})\n}\n\n")
}

// renderClientProxy writes clientMethods, which calls each client method
// with its schema types and names the method in its errors.
func renderClientProxy(b *strings.Builder, methods []dispatchMethod) {
	b.WriteString("// clientMethods calls the client's methods (clientMethods) with their schema types.\n" +
		"// Errors name the method and wrap the connection's error.\n")
	b.WriteString("type clientMethods struct {\n\tconn *rpc.Conn\n}\n\n")
	for _, dm := range methods {
		if dm.result == "" {
			fmt.Fprintf(b, "// %s sends the %s notification.\n", dm.goName, dm.constName)
			fmt.Fprintf(b, "func (c clientMethods) %s(ctx context.Context, p *%s) error {\n", dm.goName, dm.params)
			fmt.Fprintf(b, "\tif err := c.conn.Notify(ctx, %s, p); err != nil {\n", dm.constName)
			fmt.Fprintf(b, "\t\treturn fmt.Errorf(\"%%s: %%w\", %s, err)\n\t}\n\treturn nil\n}\n\n", dm.constName)
			continue
		}
		fmt.Fprintf(b, "// %s calls %s and returns its result.\n", dm.goName, dm.constName)
		fmt.Fprintf(b, "func (c clientMethods) %s(ctx context.Context, p *%s) (*%s, error) {\n", dm.goName, dm.params, dm.result)
		fmt.Fprintf(b, "\tvar r %s\n", dm.result)
		fmt.Fprintf(b, "\tif err := c.conn.Call(ctx, %s, p, &r); err != nil {\n", dm.constName)
		fmt.Fprintf(b, "\t\treturn nil, fmt.Errorf(\"%%s: %%w\", %s, err)\n\t}\n\treturn &r, nil\n}\n\n", dm.constName)
	}
}
