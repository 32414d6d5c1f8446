package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Where a shell reads its script from.
const (
	fromString = iota // bash -c 'script'
	fromFile          // bash script.sh, bash < script.sh
	fromStdin         // bash, bash -s, code piped in or a here-document
)

// shell reads the script a shell runs: bash -c 'script' and here-documents
// are parsed in turn; a script file makes the shell an ordinary command;
// code that only exists at run time (a variable, a pipe) makes it Dynamic.
// A script file fed on standard input (bash < s.sh) and a start-up file
// it is told to read (--rcfile) are files no rule names: Beyond.
func (a *analyzer) shell(inv invocation) {
	ws := inv.words
	sc := shellArgs(ws[1:])
	if sc.ok && sc.rcfile != "" {
		a.beyondAt(a.add(ws, inv.risky), sc.rcfile+" runs the start-up file it names")
	}
	switch {
	case !sc.ok:
		a.add(ws, true)
	case sc.from == fromString:
		if !sc.script.named() || !a.nested(inv, sc.script.val) {
			a.add(ws, true)
		}
	case sc.from == fromFile:
		a.add(ws, inv.risky)
	default:
		src, file, ok := stdinScript(inv.redirs)
		switch {
		case file:
			a.beyondAt(a.add(ws, inv.risky), "reading its script from a file on standard input")
		case !ok:
			a.add(ws, true)
		case !a.nested(inv, src):
			a.add(ws, true)
		}
	}
}

// beyondAt gives the command recorded at index at the reason why, unless
// it has one.
func (a *analyzer) beyondAt(at int, why string) {
	if at >= 0 && a.cmds[at].Beyond == "" {
		a.cmds[at].Beyond = why
	}
}

// nested records the commands of a script run by inv's command, and
// reports whether it could: a script too deep or not valid Bash cannot be
// read, and a risky variable set for the command changes what its
// commands run.
func (a *analyzer) nested(inv invocation, src string) bool {
	return inv.depth < maxDepth && a.script(src, inv.depth+1) && !inv.risky
}

// shellCall is what a shell's options say: the script word (-c) or
// script file word, where the script comes from, the start-up file option
// given (--rcfile), and false when they cannot be read.
type shellCall struct {
	script word
	from   int
	rcfile string
	ok     bool
}

// shellArgs reads a shell's options. It fails when -c has no script, an
// option word is not a plain literal, or the script file is a descriptor
// other than standard input (/dev/fd/3).
func shellArgs(ws []word) shellCall {
	var sc shellCall
	cflag, sflag := false, false
	i := 0
options:
	for ; i < len(ws); i++ {
		v := ws[i].val
		switch {
		case !ws[i].named():
			return shellCall{}
		case v == "--" || v == "-":
			i++
			break options
		case len(v) < 2 || (v[0] != '-' && v[0] != '+'):
			break options
		case strings.HasPrefix(v, "--"):
			if v == "--rcfile" || v == "--init-file" {
				sc.rcfile = v
				i++
			}
			continue
		}
		for _, c := range v[1:] {
			switch c {
			case 'c':
				cflag = true
			case 's':
				sflag = true
			case 'o', 'O':
				i++ // the option name follows
			}
		}
	}
	rest := ws[min(i, len(ws)):]
	switch {
	case cflag && len(rest) == 0:
		return shellCall{}
	case cflag:
		sc.script, sc.from = rest[0], fromString
	case sflag || len(rest) == 0:
		sc.from = fromStdin
	case stdinPath(rest[0].val) && !isStdin(rest[0].val):
		return shellCall{}
	case stdinPath(rest[0].val):
		sc.from = fromStdin
	default:
		sc.script, sc.from = rest[0], fromFile
	}
	sc.ok = true
	return sc
}

// isStdin reports whether a descriptor path names standard input.
func isStdin(p string) bool {
	switch path.Clean(p) {
	case "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "/proc/thread-self/fd/0":
		return true
	}
	return false
}

// stdinScript finds what a statement feeds to standard input: a script
// file (file is true), or the literal text of a here-document or here-string
// (ok is true). Anything else (a pipe, an expansion) is unknown.
func stdinScript(redirs []*syntax.Redirect) (src string, file, ok bool) {
	for i := len(redirs) - 1; i >= 0; i-- {
		r := redirs[i]
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.RdrIn:
			return "", true, false
		case syntax.WordHdoc:
			v, ok := literalWord(r.Word)
			return v + "\n", false, ok
		case syntax.Hdoc, syntax.DashHdoc:
			return heredocText(r)
		}
	}
	return "", false, false
}

// heredocText returns the body of a here-document when it holds no
// expansion. With an unquoted delimiter the shell removes backslashes
// before $, `, \ and newlines.
func heredocText(r *syntax.Redirect) (string, bool, bool) {
	if r.Hdoc == nil {
		return "", false, true
	}
	delim, plain := r.Word.Parts[0].(*syntax.Lit)
	quotedDelim := len(r.Word.Parts) != 1 || !plain || strings.Contains(delim.Value, `\`)
	var b strings.Builder
	for _, p := range r.Hdoc.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			return "", false, false
		}
		if quotedDelim {
			b.WriteString(lit.Value)
		} else {
			b.WriteString(unescape(lit.Value, "$`\\\n"))
		}
	}
	return b.String(), false, true
}

// trap records trap, and parses the command it installs (run on a signal
// or on exit); a command that cannot be read makes trap Dynamic.
func (a *analyzer) trap(inv invocation) {
	ws := inv.words
	at := a.add(ws, inv.risky)
	args := ws[1:]
	if len(args) > 0 && args[0].val == "--" {
		args = args[1:]
	}
	if len(args) < 2 || args[0].val == "-" || args[0].val == "" || (args[0].lit && strings.HasPrefix(args[0].val, "-")) {
		return // listing, printing or resetting traps
	}
	if !args[0].lit || !a.nested(invocation{words: ws, depth: inv.depth}, args[0].val) {
		a.cmds[at].Dynamic = true
	}
}

// alias records alias, and parses the text of each alias it defines; text
// that cannot be read makes alias Dynamic.
func (a *analyzer) alias(inv invocation) {
	ws := inv.words
	at := a.add(ws, inv.risky)
	for _, w := range ws[1:] {
		_, val, isDef := strings.Cut(w.val, "=")
		if !w.lit || (isDef && !a.nested(invocation{words: ws, depth: inv.depth}, val)) {
			a.cmds[at].Dynamic = true
		}
	}
}

// find records find itself and the commands of its -exec, -execdir, -ok and
// -okdir actions, in which "{}" is a file name known only at run time; the
// files of -fprint, -fprint0, -fprintf and -fls count as written. A word of
// find's own that is not literal could be an action: find is then Dynamic.
func (a *analyzer) find(inv invocation) {
	ws := inv.words
	dynamic := inv.risky
	var inner [][]word
	for i := 1; i < len(ws); i++ {
		switch ws[i].val {
		case "-exec", "-execdir", "-ok", "-okdir":
			end := i + 1
			for end < len(ws) && ws[end].val != ";" && ws[end].val != "+" {
				end++
			}
			inner = append(inner, unknownWhere(ws[i+1:end], "{}"))
			i = end
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if i+1 < len(ws) && ws[i+1].named() {
				a.writes(ws[i+1].val)
			} else {
				a.writes("")
			}
		default:
			dynamic = dynamic || !ws[i].lit
		}
	}
	a.add(ws, dynamic)
	for _, cmd := range inner {
		a.command(invocation{words: cmd, depth: inv.depth, risky: inv.risky})
	}
}
