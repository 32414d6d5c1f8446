package agent

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"testing"
)

// maxSessionMethods bounds Session's methods, exported and not: the
// facade stays small, and new behaviour goes to one of its parts (the
// engine, the journal writer, the model picker…) or, for a slash
// command, to package agent/command.
const maxSessionMethods = 80

// TestSessionMethodCount: Session declares at most maxSessionMethods
// methods (it embeds nothing, so these are its whole method set).
func TestSessionMethodCount(t *testing.T) {
	t.Parallel()
	bp, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	n := 0
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && recvName(fd) == "Session" {
				n++
			}
		}
	}
	if n > maxSessionMethods {
		t.Errorf("Session has %d methods, more than %d: give the new behaviour to one of its parts", n, maxSessionMethods)
	}
	if n < 40 {
		t.Errorf("counted %d Session methods; the count is broken", n)
	}
	t.Logf("Session has %d methods", n)
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
