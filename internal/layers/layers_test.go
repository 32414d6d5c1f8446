package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "companion"

// allowed is every import edge between companion's packages that the design
// permits, package → the companion packages it may import, in the order of
// AGENTS.md's package table. Test-only imports are not listed; test-only
// packages (e2e, bench) and the command may import anything.
func allowed() map[string][]string {
	return map[string][]string{
		// Front ends: they decode, call the host, and encode.
		"acp":             {"agent", "agent/model", "config", "host", "ide", "rpc", "tools", "tools/mcp", "tools/sandbox"},
		"acp/schema":      {},
		"acp/schemacheck": {"acp/schema"},
		"headless":        {"agent", "agent/hooks", "agent/model", "host", "tools", "tools/mcp"},
		"chat":            {"agent", "host", "tools"},
		// The session host every front end shares.
		"host": {"agent", "agent/checkpoint", "agent/command", "agent/hooks", "agent/memory", "agent/model",
			"agent/model/gemini", "agent/model/openai", "agent/model/scripted", "agent/model/textproto",
			"agent/skills", "agent/slash", "agent/store", "config", "ide", "ide/companion", "telemetry", "tools", "tools/lsp", "tools/mcp", "tools/policy",
			"tools/sandbox", "tools/websearch"},
		// OpenTelemetry export, wired by the host only when enabled.
		"telemetry": {"agent", "agent/model"},
		// The commands' wiring, importable by tests.
		"internal/cli": {"acp", "agent/memory", "chat", "config", "credentials", "headless", "host", "secrets", "tools", "tools/builtin",
			"tools/sandbox"},
		"rpc": {},

		// The core.
		"agent": {"agent/checkpoint", "agent/hooks", "agent/memory", "agent/model", "agent/skills", "agent/slash",
			"agent/store", "ide", "tools", "tools/builtin", "tools/mcp", "tools/policy", "tools/sandbox", "tools/shell"},
		"agent/command":                  {"agent", "agent/checkpoint", "agent/model", "agent/skills", "agent/slash", "agent/store", "tools", "tools/sandbox"},
		"agent/store":                    {},
		"agent/checkpoint":               {"internal/filelock"},
		"agent/memory":                   {"tools"},
		"agent/model":                    {},
		"agent/model/gemini":             {"agent/model", "internal/sse"},
		"agent/model/openai":             {"agent/model", "internal/sse"},
		"agent/model/textproto":          {"agent/model"},
		"agent/model/scripted":           {},
		"agent/model/internal/modeltest": {"agent/model", "agent/model/scripted"},
		"internal/sse":                   {},
		"internal/childproc":             {},
		"agent/hooks":                    {"tools", "tools/procgroup", "tools/shell"},
		"agent/slash":                    {},
		"agent/skills":                   {"tools"},
		"tools":                          {},
		"tools/builtin":                  {"secrets", "tools", "tools/procgroup", "tools/sandbox", "tools/shell"},
		"tools/sandbox":                  {},
		"tools/shell":                    {},
		"tools/policy":                   {"tools"},
		"tools/procgroup":                {},
		"tools/websearch":                {"tools"},
		"tools/mcp":                      {"config", "internal/childproc", "mcpclient", "mcpclient/oauth", "tools", "tools/procgroup"},
		"tools/lsp":                      {"ide", "internal/childproc", "lspclient", "tools", "tools/procgroup"},

		// Editor context and settings.
		"ide":                         {},
		"ide/companion":               {"ide", "mcpclient"},
		"ide/companion/companiontest": {},
		"config":                      {},
		"secrets":                     {},
		"credentials":                 {},

		// The MCP client the MCP tools and the IDE link share.
		"mcpclient": {},
		// The language server client.
		"lspclient": {},
		// OAuth for remote MCP servers, and its test authorization server.
		"mcpclient/oauth":           {"internal/filelock"},
		"mcpclient/oauth/oauthtest": {},

		// Generator and test harnesses.
		"internal/acpgen":            {},
		"internal/acpgen/cmd/acpgen": {"internal/acpgen"},
		"internal/testkit/acptest":   {"acp/schemacheck", "internal/testkit/testio"},
		"internal/testkit/sdktest":   {"internal/testkit/testio"},
		"internal/testkit/agenttest": {"agent/model", "agent/store", "tools"},
		"internal/testkit/testio":    {},
		"internal/filelock":          {},
		"internal/layers":            {},

		// The task suite: it runs the companion binary, importing none of it.
		"eval": {},

		// The ACP Registry entry and its test (no code).
		"editors/registry": {},
	}
}

// anything is the packages that may import any companion package: the
// command wires everything, and the cross-package tests and benchmarks
// drive everything.
func anything() []string { return []string{"cmd/companion", "e2e", "bench"} }

// protocol is the packages the core must never reach, directly or through
// another package: the wire layers and the front ends. A subpackage of one
// counts as it.
func protocol() []string { return []string{"acp", "rpc", "headless", "chat", "host", "internal/cli"} }

// core is the packages (with their subpackages) that know no protocol.
func core() []string { return []string{"agent", "tools"} }

// pkg is what the test reads of one package from `go list -json`.
type pkg struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

// listPackages returns every package of the module, keyed by its path
// relative to the module ("" for the root), with only the module's own
// imports kept.
func listPackages(t *testing.T) map[string]pkg {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports,TestImports,XTestImports", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	pkgs := map[string]pkg{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		p.ImportPath = rel(p.ImportPath)
		p.Imports, p.TestImports, p.XTestImports = own(p.Imports), own(p.TestImports), own(p.XTestImports)
		pkgs[p.ImportPath] = p
	}
	if len(pkgs) == 0 {
		t.Fatal("go list found no packages")
	}
	return pkgs
}

// own keeps the module's packages of paths, relative to the module.
func own(paths []string) []string {
	var out []string
	for _, p := range paths {
		if p == module || strings.HasPrefix(p, module+"/") {
			out = append(out, rel(p))
		}
	}
	return out
}

func rel(path string) string {
	return strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
}

// under reports whether path is one of roots or inside one of them.
func under(path string, roots []string) bool {
	return slices.ContainsFunc(roots, func(r string) bool { return path == r || strings.HasPrefix(path, r+"/") })
}

// TestImportEdgesAreAllowed fails on an import between companion packages
// that the allow-list does not name, on a package the list does not know,
// and on a listed edge the code no longer has.
func TestImportEdgesAreAllowed(t *testing.T) {
	for _, p := range edgeProblems(listPackages(t), allowed()) {
		t.Error(p)
	}
}

// TestCoreKnowsNoProtocol fails when a package under agent/ or tools/, or
// one of its tests, reaches a protocol or front-end package through any
// chain of imports. The failure names the chain.
func TestCoreKnowsNoProtocol(t *testing.T) {
	for _, p := range coreProblems(listPackages(t)) {
		t.Error(p)
	}
}

// TestChecksCatch feeds both checks small made-up graphs, so a check that
// stopped finding anything would fail here rather than pass silently.
func TestChecksCatch(t *testing.T) {
	allow := map[string][]string{"agent": {"tools"}, "tools": {}, "acp": {"agent"}}
	edges := func(pkgs map[string]pkg) []string { return edgeProblems(pkgs, allow) }
	both := func(pkgs map[string]pkg) []string { return append(edges(pkgs), coreProblems(pkgs)...) }
	tests := []struct {
		name  string
		check func(map[string]pkg) []string
		pkgs  []pkg
		want  []string // substrings of the problems, in order
	}{
		{"clean", both, []pkg{{ImportPath: "agent", Imports: []string{"tools"}}, {ImportPath: "tools"},
			{ImportPath: "acp", Imports: []string{"agent"}}, {ImportPath: "cmd/companion", Imports: []string{"acp"}}}, nil},
		{"new edge", edges, []pkg{{ImportPath: "agent", Imports: []string{"tools"}}, {ImportPath: "tools", Imports: []string{"agent"}},
			{ImportPath: "acp", Imports: []string{"agent"}}}, []string{"tools imports agent"}},
		{"new package", edges, []pkg{{ImportPath: "agent", Imports: []string{"tools"}}, {ImportPath: "tools"},
			{ImportPath: "acp", Imports: []string{"agent"}}, {ImportPath: "host"}}, []string{"package host is new"}},
		{"stale edge and package", edges, []pkg{{ImportPath: "agent"}, {ImportPath: "tools"}},
			[]string{"lets agent import tools", "lists acp"}},
		{"core reaches acp directly", coreProblems, []pkg{{ImportPath: "tools", Imports: []string{"acp"}}, {ImportPath: "acp"}},
			[]string{"tools reaches acp: tools → acp"}},
		{"core test reaches rpc through a harness", coreProblems, []pkg{{ImportPath: "agent/store", TestImports: []string{"internal/harness"}},
			{ImportPath: "internal/harness", Imports: []string{"rpc/x"}}, {ImportPath: "rpc/x"}},
			[]string{"agent/store reaches rpc/x: agent/store → internal/harness → rpc/x"}},
		{"core reaches a future host", coreProblems, []pkg{{ImportPath: "agent", Imports: []string{"host"}}, {ImportPath: "host"}},
			[]string{"agent reaches host"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pkgs := map[string]pkg{}
			for _, p := range tt.pkgs {
				pkgs[p.ImportPath] = p
			}
			got := tt.check(pkgs)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d problems, want %d: %q", len(got), len(tt.want), got)
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d = %q, want it to say %q", i, got[i], w)
				}
			}
		})
	}
}

// edgeProblems lists, sorted, each import in pkgs that allow does not name,
// each package it does not know, and each allowed edge or package the code
// no longer has.
func edgeProblems(pkgs map[string]pkg, allow map[string][]string) []string {
	var out []string
	for path, p := range pkgs {
		if under(path, anything()) {
			continue
		}
		ok, known := allow[path]
		if !known {
			out = append(out, "package "+path+" is new: add it, with what it may import, to allowed() in internal/layers/layers_test.go and to AGENTS.md's package table")
			continue
		}
		for _, imp := range p.Imports {
			if !slices.Contains(ok, imp) {
				out = append(out, path+" imports "+imp+", an edge the design does not list: if it belongs, add it to allowed() in internal/layers/layers_test.go and to AGENTS.md; if not, remove the import")
			}
		}
		for _, imp := range ok {
			if !slices.Contains(p.Imports, imp) {
				out = append(out, "allowed() lets "+path+" import "+imp+", which it no longer does: remove the edge from internal/layers/layers_test.go (and AGENTS.md if it says so)")
			}
		}
	}
	for path := range allow {
		if _, ok := pkgs[path]; !ok {
			out = append(out, "allowed() lists "+path+", which no longer exists: remove it from internal/layers/layers_test.go and AGENTS.md")
		}
	}
	slices.Sort(out)
	return out
}

// coreProblems lists, sorted, each core package whose imports or test
// imports reach a protocol package, with the chain.
func coreProblems(pkgs map[string]pkg) []string {
	var out []string
	for path, p := range pkgs {
		if !under(path, core()) {
			continue
		}
		roots := slices.Concat(p.Imports, p.TestImports, p.XTestImports)
		if chain := reach(pkgs, path, roots); chain != nil {
			out = append(out, path+" reaches "+chain[len(chain)-1]+": "+strings.Join(chain, " → ")+
				"; the core must not know a protocol or front end (AGENTS.md)")
		}
	}
	slices.Sort(out)
	return out
}

// reach walks the production imports from roots breadth first and returns
// the shortest chain from "from" to a protocol package, or nil.
func reach(pkgs map[string]pkg, from string, roots []string) []string {
	prev := map[string]string{}
	queue := []string{}
	for _, r := range roots {
		if _, seen := prev[r]; !seen && r != from {
			prev[r] = from
			queue = append(queue, r)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if under(n, protocol()) {
			chain := []string{n}
			for c := prev[n]; c != from; c = prev[c] {
				chain = append(chain, c)
			}
			chain = append(chain, from)
			slices.Reverse(chain)
			return chain
		}
		for _, m := range pkgs[n].Imports {
			if _, seen := prev[m]; !seen && m != from {
				prev[m] = n
				queue = append(queue, m)
			}
		}
	}
	return nil
}

// heavyDeps are modules the command must not link, each for the reason on
// its line. mcp-go's client is linked on purpose (issue 30: its transports
// replace ours); it brings mcp-go's server and the santhosh-tekuri
// JSON-schema compiler, whose initialiser (1.7 MB, 21k allocations) is
// the price, measured against the 10 ms init guard.
func heavyDeps() []string {
	return []string{
		"github.com/openai/openai-go", // its reflection kept ~18 MB of the release binary alive and cost 0.7-3 ms of init (+19.6 MB measured again with v3); agent/model/openai's own client does the job
	}
}

// TestCommandLinksNoHeavyDeps fails when the companion command links one
// of heavyDeps, naming the package that imports it.
func TestCommandLinksNoHeavyDeps(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}: {{join .Imports \" \"}}", module+"/cmd/companion").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		path, imports, _ := strings.Cut(line, ": ")
		for _, imp := range strings.Fields(imports) {
			if slices.ContainsFunc(heavyDeps(), func(h string) bool { return imp == h || strings.HasPrefix(imp, h+"/") }) {
				t.Errorf("%s imports %s, which the command must not link (see heavyDeps)", path, imp)
			}
		}
	}
}
