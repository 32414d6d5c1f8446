package agent

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxSessionMethods bounds Session's method set, exported and not: the
// facade stays small, its parts (engine, commands, journal writer…) keep
// their own methods.
const maxSessionMethods = 80

// isCommandFile reports whether a file of package agent belongs to the
// command layer: commands.go and commands_*.go.
func isCommandFile(path string) bool {
	base := filepath.Base(path)
	return strings.HasPrefix(base, "commands") && !strings.HasSuffix(base, "_test.go")
}

// TestSessionFacade checks the shape of Session from the package's
// types: the command layer uses its exported API only, and its method
// set stays small.
func TestSessionFacade(t *testing.T) {
	t.Parallel()
	fset, files, info, pkg := typeCheckAgent(t)
	t.Run("CommandLayerUsesExportedAPI", func(t *testing.T) { commandLayerUsesExportedAPI(t, fset, files, info, pkg) })
	t.Run("SessionMethodCount", func(t *testing.T) {
		n := types.NewMethodSet(types.NewPointer(owners(t, pkg, "Session")[0])).Len()
		if n > maxSessionMethods {
			t.Errorf("Session has %d methods, more than %d: give the new behaviour to one of its parts", n, maxSessionMethods)
		}
		t.Logf("Session has %d methods", n)
	})
}

// commandLayerUsesExportedAPI: the command layer (commands*.go) drives
// the session through its exported methods only, as a front end would:
// no unexported field or method of Session or engine, and no unexported
// function that takes one, is named in its files. Every method of the
// layer's types is declared in those files, so none escapes the check.
func commandLayerUsesExportedAPI(t *testing.T, fset *token.FileSet, files []*ast.File, info *types.Info, pkg *types.Package) {
	var layer []*ast.File
	for _, f := range files {
		if isCommandFile(fset.Position(f.Pos()).Filename) {
			layer = append(layer, f)
		}
	}
	if len(layer) < 2 {
		t.Fatalf("found %d command-layer files; the layer is commands.go and commands_*.go", len(layer))
	}
	for _, v := range internalUses(fset, info, layer, owners(t, pkg, "Session", "engine")) {
		t.Errorf("the command layer reaches into the session: %s", v)
	}
	for _, f := range files {
		if isCommandFile(fset.Position(f.Pos()).Filename) {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && slices.Contains([]string{"commands", "slashEnv"}, recvName(fd)) {
				t.Errorf("%s: method %s.%s of the command layer is outside commands*.go", fset.Position(fd.Pos()), recvName(fd), fd.Name.Name)
			}
		}
	}
}

// TestInternalUsesFindsViolations: the check behind
// TestCommandLayerUsesExportedAPI finds every way of reaching into a
// session planted in a small package, and passes its exported API.
func TestInternalUsesFindsViolations(t *testing.T) {
	t.Parallel()
	const src = `package p
type Session struct{ opts int; eng *engine }
func (s *Session) emit() {}
func (s *Session) ID() string { return "" }
type engine struct{ *Session; hist int }
func (e *engine) compress() {}
func poke(s *Session) {}
type commands struct{ s *Session }
type embeds struct{ *Session }
func (c *commands) fine() string { return c.s.ID() }
func (c *commands) field() int { return c.s.opts }
func (c *commands) method() { c.s.emit() }
func (c *commands) value() func() { return c.s.emit }
func (c *commands) expr() func(*Session) { return (*Session).emit }
func (c *commands) engine() { c.s.eng.compress() }
func (c *commands) promoted() int { return c.s.eng.opts }
func (c *commands) literal() Session { return Session{opts: 1} }
func (c *commands) helper() { poke(c.s) }
func (e embeds) embedded() { e.emit() }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	got := internalUses(fset, info, []*ast.File{f}, owners(t, pkg, "Session", "engine"))
	want := []string{"opts", "emit", "emit", "emit", "eng", "compress", "eng", "opts", "opts", "poke", "emit"}
	var names []string
	for _, v := range got {
		names = append(names, v[strings.LastIndex(v, " ")+1:])
	}
	if !slices.Equal(names, want) {
		t.Errorf("found %q, want %q\n%s", names, want, strings.Join(got, "\n"))
	}
}

// internalUses lists, as "file:line:col name", every identifier in files
// that names an unexported field or method of one of owners, or an
// unexported function that takes one of them.
func internalUses(fset *token.FileSet, info *types.Info, files []*ast.File, owners []*types.Named) []string {
	var out []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			if obj := info.Uses[id]; obj != nil && !obj.Exported() && reachesInto(obj, owners) {
				out = append(out, fmt.Sprintf("%s %s", fset.Position(id.Pos()), id.Name))
			}
			return true
		})
	}
	return out
}

// reachesInto reports whether obj is a field or method of one of owners,
// or a plain function with a parameter of one of their types.
func reachesInto(obj types.Object, owners []*types.Named) bool {
	switch o := obj.(type) {
	case *types.Func:
		sig := o.Type().(*types.Signature)
		if sig.Recv() != nil {
			return isOwner(sig.Recv().Type(), owners)
		}
		for p := range sig.Params().Variables() {
			if isOwner(p.Type(), owners) {
				return true
			}
		}
	case *types.Var:
		for _, n := range owners {
			st, ok := n.Underlying().(*types.Struct)
			for i := 0; ok && i < st.NumFields(); i++ {
				if st.Field(i) == o {
					return true
				}
			}
		}
	}
	return false
}

// isOwner reports whether t is one of owners or a pointer to one.
func isOwner(t types.Type, owners []*types.Named) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && slices.Contains(owners, n)
}

// owners looks the named types up in pkg.
func owners(t *testing.T, pkg *types.Package, names ...string) []*types.Named {
	t.Helper()
	var out []*types.Named
	for _, name := range names {
		obj := pkg.Scope().Lookup(name)
		if obj == nil {
			t.Fatalf("package %s declares no %s", pkg.Path(), name)
		}
		out = append(out, obj.Type().(*types.Named))
	}
	return out
}

// recvName is the name of a method's receiver type.
func recvName(fd *ast.FuncDecl) string {
	x := fd.Recv.List[0].Type
	if s, ok := x.(*ast.StarExpr); ok {
		x = s.X
	}
	if id, ok := x.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// typeCheckAgent type-checks this package's non-test files from source,
// its imports from the compiler's export data (go list -export).
func typeCheckAgent(t *testing.T) (*token.FileSet, []*ast.File, *types.Info, *types.Package) {
	t.Helper()
	bp, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	exports := exportData(t)
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{Importer: imp}).Check("companion/agent", fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	return fset, files, info, pkg
}

// exportData maps the import path of each package this one depends on to
// its export data file.
func exportData(t *testing.T) map[string]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	m := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), "\t"); ok && file != "" {
			m[path] = file
		}
	}
	return m
}
