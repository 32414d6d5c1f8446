package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxDepth bounds how deep scripts inside scripts (bash -c, trap, alias)
// are read; deeper ones make their command Dynamic.
const maxDepth = 8

// Command is one simple command a line runs. It has the shape of
// tools.ShellCommand, to which it converts.
type Command struct {
	// Words are the command's words after quote removal and brace
	// expansion; a word holding an expansion is kept as written ("$HOME").
	Words []string
	// Dynamic means the program that runs cannot be known before the line
	// runs: its name is an expansion or a pattern, or it runs code given as
	// data (eval, source, bash -c "$x", code piped into a shell), or it sets
	// a variable that changes what programs run (PATH, LD_PRELOAD, ...),
	// or a value reaches a place where bash evaluates it as code (an
	// arithmetic context, an array subscript, ${!x}, ${x@P}).
	Dynamic bool
	// Beyond, when set, names an option through which the command runs
	// other programs or writes files (git -c, sed -i, find -delete), or an
	// unlisted variable it runs with ("with GOCACHEPROG set", unlistedVar):
	// more than a rule naming the program can promise, so no allow rule
	// covers the command.
	Beyond string
	// Fixed, when above zero, is how many leading words choose the code
	// the command runs (python3 -m pytest: 3): an allow or ask rule covers
	// the command only when it names them all.
	Fixed int
}

// Analysis is what a command line would do, found without running it.
type Analysis struct {
	// Parsed is false when the line is not valid Bash; nothing else is set.
	Parsed bool
	// Commands are every simple command the line runs, in source order,
	// with wrappers (env, nohup, time, timeout, nice, ionice, taskset,
	// command, builtin, exec, stdbuf, setsid, xargs, busybox, flock, watch,
	// bash -c) replaced by the command they run. sudo and doas stay as
	// commands of their own before the command they run, and a wrapper
	// that changes folder (env -C dir, sudo -D dir) adds "cd dir" before it; find stays before
	// the commands of its -exec actions. A place where bash evaluates a
	// value as code ($((x)), ${!x}, ${x@P}, ...) is a Dynamic command of
	// its own, its only word the construct as written.
	Commands []Command
	// Redirects are the files the line writes by redirection (>, >>, >|,
	// &>, &>>, <>, >&file, find -fprint), as written and unquoted; "" for a
	// target that is not a plain literal, and for a relative target in a
	// line that changes directory (cd, pushd, popd), since its base is then
	// unknown. /dev/null, /dev/stdout and /dev/stderr are left out.
	Redirects []string
	// RootCommands are the distinct literal program names of Commands, in
	// order.
	RootCommands []string
}

// Analyze reads a Bash command line and reports every command it would run
// and every file it would write by redirection.
func Analyze(line string) Analysis {
	a := &analyzer{printer: syntax.NewPrinter()}
	if !a.script(line, 0) {
		return Analysis{}
	}
	res := Analysis{Parsed: true, Redirects: a.redirects}
	if a.moved {
		for i, target := range res.Redirects {
			if !strings.HasPrefix(target, "/") {
				res.Redirects[i] = ""
			}
		}
	}
	for _, c := range a.cmds {
		res.Commands = append(res.Commands, c.Command)
		if c.named && !slices.Contains(res.RootCommands, c.Words[0]) {
			res.RootCommands = append(res.RootCommands, c.Words[0])
		}
	}
	return res
}

// found is a command with whether its first word is a literal name.
type found struct {
	Command
	named bool
}

// analyzer collects commands and redirections while walking syntax trees.
type analyzer struct {
	printer   *syntax.Printer
	cmds      []found
	redirects []string
	// moved records a command that changes the working directory of the
	// commands after it (cd, pushd, popd, env -C).
	moved bool
	// later is the first unlisted variable the line sets for the commands
	// after the assignment (setLater).
	later string
}

// script parses src and records what it runs; false means it does not
// parse.
func (a *analyzer) script(src string, depth int) bool {
	if strings.ContainsRune(src, '\r') {
		// The parser reads a carriage return as a blank (and \r\n as a
		// newline); bash keeps it inside the word. "ls \r#; rm x" is a
		// comment to the parser but runs rm in bash, so such a line is
		// not read at all: it is asked about.
		return false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true)).Parse(strings.NewReader(src), "")
	if err != nil || strings.Contains(src, "\\\n") && continuedComment(f) {
		return false
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		a.visit(n, depth)
		if n != nil && evaluates(n) {
			a.add([]word{{val: excerpt(src, n)}}, true)
		}
		return true
	})
	return true
}

// continuedComment reports whether a comment of f runs past the end of
// its line. The parser reads a backslash before the newline as a line
// continuation even in a comment, where bash does not: in "ls # x \
// rm -rf y" it sees rm -rf y as arguments of ls, bash runs it. Such a
// line is not read at all, so it is asked about. Only a line holding a
// backslash-newline needs the walk.
func continuedComment(f *syntax.File) bool {
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.Comment); ok && strings.Contains(c.Text, "\n") {
			found = true
		}
		return !found
	})
	return found
}

// visit records what one node runs or writes. Walk goes on into its
// children, so substitutions nested anywhere are visited too.
func (a *analyzer) visit(n syntax.Node, depth int) {
	switch n := n.(type) {
	case *syntax.Stmt:
		if call, ok := n.Cmd.(*syntax.CallExpr); ok && len(call.Args) > 0 {
			a.call(call, n.Redirs, depth)
		}
	case *syntax.CallExpr:
		if len(n.Args) == 0 {
			a.assignments(n.Assigns)
		}
	case *syntax.DeclClause:
		a.decl(n)
	case *syntax.WordIter:
		if riskyVar(n.Name.Value) { // for PATH in ...; select PATH in ...
			a.add([]word{{val: n.Name.Value, lit: true}}, true)
		}
		a.setLater(n.Name.Value)
	case *syntax.Redirect:
		a.redirect(n)
	}
}

// add records a command and returns its index in a.cmds (-1 for none).
func (a *analyzer) add(ws []word, dynamic bool) int {
	if len(ws) == 0 {
		return -1
	}
	out := beyond(ws)
	if out == "" && a.later != "" {
		out = setWith(a.later)
	}
	a.cmds = append(a.cmds, found{
		Command: Command{Words: vals(ws), Dynamic: dynamic || !ws[0].named(), Beyond: out},
		named:   ws[0].lit,
	})
	return len(a.cmds) - 1
}

// call records a simple command with its prefix assignments.
func (a *analyzer) call(c *syntax.CallExpr, redirs []*syntax.Redirect, depth int) {
	var set assigned
	for _, as := range c.Assigns {
		if as.Name != nil {
			set.note(as.Name.Value)
		}
	}
	a.command(invocation{words: a.words(c.Args), redirs: redirs, depth: depth, risky: set.risky, unsure: set.unsure})
}

// assignments records a statement made only of assignments when one of
// them sets a variable that changes what later commands run; one that sets
// an unlisted variable marks the commands after it (setLater).
func (a *analyzer) assignments(as []*syntax.Assign) {
	for _, v := range as {
		if v.Name == nil {
			continue
		}
		if riskyVar(v.Name.Value) {
			a.add([]word{{val: a.assignSource(v), lit: true}}, true)
		}
		a.setLater(v.Name.Value)
	}
}

// setLater notes that the line sets the variable name for the commands
// after it (an assignment to a variable that may be exported, export,
// declare -x): when it is unlisted, those commands are not covered by a
// rule naming their program.
func (a *analyzer) setLater(name string) {
	if a.later == "" && isName(name) && unlistedVar(name) {
		a.later = name
	}
}

// decl records declare, export, local, readonly, typeset and nameref.
// Setting a risky variable, an argument whose name is only known at run
// time, an integer attribute (later assignments evaluate their values as
// arithmetic) or a nameref to anything but a plain name makes it Dynamic.
func (a *analyzer) decl(d *syntax.DeclClause) {
	ws := []word{{val: d.Variant.Value, lit: true}}
	risky, nameref := d.Variant.Value == "nameref", false
	var names []string
	for _, v := range d.Args {
		switch {
		case v.Name != nil:
			// declare -n ref=PATH makes ref an alias of PATH: a value
			// naming a risky variable counts too.
			val, lit := literalWord(v.Value)
			names = append(names, v.Name.Value)
			ws = append(ws, word{val: a.assignSource(v), lit: true})
			risky = risky || riskyVar(v.Name.Value) || riskyVar(val) ||
				(nameref && (v.Naked || v.Value == nil || !lit || !isName(val)))
		default: // declare "$x", export "PATH=/x": a word read at run time
			val, ok := literalWord(v.Value)
			name, _, _ := strings.Cut(val, "=")
			if ok && strings.HasPrefix(val, "-") {
				nameref = nameref || strings.Contains(val, "n")
				risky = risky || strings.Contains(val, "i")
			}
			risky = risky || !ok || riskyVar(strings.TrimSuffix(name, "+")) || strings.Contains(name, "[")
			names = append(names, strings.TrimSuffix(name, "+"))
			ws = append(ws, word{val: a.source(v.Value), lit: ok})
		}
	}
	a.add(ws, risky)
	for _, name := range names {
		a.setLater(name)
	}
}

// assignSource prints a named assignment as written.
func (a *analyzer) assignSource(v *syntax.Assign) string {
	var b strings.Builder
	if err := a.printer.Print(&b, &syntax.CallExpr{Assigns: []*syntax.Assign{v}}); err != nil {
		return "?"
	}
	return b.String()
}

// redirect records the file a redirection writes.
func (a *analyzer) redirect(r *syntax.Redirect) {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll,
		syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob, syntax.RdrInOut:
	case syntax.DplOut:
		// >&2 and >&- duplicate or close a descriptor; >&file writes file.
		if v, ok := literalWord(r.Word); ok && (v == "-" || isNumber(v)) {
			return
		}
	default:
		return // reads: <, <&, here-documents
	}
	if len(r.Word.Parts) == 1 {
		if _, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok {
			return // > >(cmd) writes to a pipe; cmd is visited as a command
		}
	}
	target, _ := literalWord(r.Word)
	a.writes(target)
}

// writes records a written file, leaving out the pseudo-files that are
// not files.
func (a *analyzer) writes(target string) {
	switch target {
	case "/dev/null", "/dev/stdout", "/dev/stderr":
		return
	}
	a.redirects = append(a.redirects, target)
}

// isNumber reports whether s is a non-empty run of decimal digits.
func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
