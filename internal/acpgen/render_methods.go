package acpgen

import (
	"fmt"
	"strings"
)

// methodDefs are the definitions a method's x-method/x-side point at.
type methodDefs struct {
	side, params, result string
}

// findMethodDefs indexes the schema's x-method definitions: the one named
// ...Response is the result, the other the params.
func findMethodDefs(m *model) map[string]methodDefs {
	out := map[string]methodDefs{}
	for _, name := range m.doc.Defs.keys {
		n, _ := m.doc.Defs.get(name)
		if n.XMethod == "" {
			continue
		}
		md := out[n.XMethod]
		md.side = n.XSide
		goType := name
		if d := m.byDef[name]; d != nil {
			goType = d.name
		}
		if strings.HasSuffix(name, "Response") {
			md.result = goType
		} else {
			md.params = goType
		}
		out[n.XMethod] = md
	}
	return out
}

// renderMethods writes the method-name constants from meta.json and the
// protocol version they belong to.
func renderMethods(m *model) (string, error) {
	defs := findMethodDefs(m)
	var b strings.Builder
	b.WriteString("// LatestProtocolVersion is the ACP protocol version these types describe (meta.json \"version\").\n")
	fmt.Fprintf(&b, "const LatestProtocolVersion ProtocolVersion = %d\n\n", m.meta.Version)
	groups := []struct {
		title string
		names ordered[string]
	}{
		{"Methods the agent implements (agentMethods: client → agent).", m.meta.AgentMethods},
		{"Methods the client implements (clientMethods: agent → client).", m.meta.ClientMethods},
		{"Protocol-level methods either side may send (protocolMethods).", m.meta.ProtocolMethods},
	}
	for _, g := range groups {
		fmt.Fprintf(&b, "// %s\nconst (\n", g.title)
		for _, key := range g.names.keys {
			method, _ := g.names.get(key)
			name := "Method" + goName(key)
			if err := m.claim(name, "meta.json "+key); err != nil {
				return "", err
			}
			b.WriteString(comment("\t", methodDoc(name, method, defs[method])))
			fmt.Fprintf(&b, "\t%s = %q\n", name, method)
		}
		b.WriteString(")\n\n")
	}
	return b.String(), nil
}

// methodDoc says who handles a method and which types carry it.
func methodDoc(name, method string, md methodDefs) string {
	who := map[string]string{"agent": "the agent handles", "client": "the client handles",
		"protocol": "either side may send"}[md.side]
	switch {
	case md.params == "":
		return fmt.Sprintf("%s is %q.", name, method)
	case md.result == "":
		return fmt.Sprintf("%s is %q, a notification %s: params %s.", name, method, who, md.params)
	}
	return fmt.Sprintf("%s is %q, a request %s: params %s, result %s.", name, method, who, md.params, md.result)
}
