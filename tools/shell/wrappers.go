package shell

import (
	"cmp"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// invocation is a command about to be examined: its words, the
// redirections of its statement (a shell may read its script from a
// here-document), how deep in nested scripts it sits, whether a risky
// variable is set for it, and the first unlisted one (unlistedVar).
type invocation struct {
	words  []word
	redirs []*syntax.Redirect
	depth  int
	risky  bool
	unsure string
}

// command records a command, unwrapping wrappers until the command that
// really runs is found. Every command it records (the wrappers, the
// command, the scripts it runs) gets an unlisted variable set for it.
func (a *analyzer) command(inv invocation) {
	start := len(a.cmds)
	unsure := inv.unsure
	defer func() { a.setFor(start, unsure) }()
	for len(inv.words) > 0 {
		if !inv.words[0].named() {
			a.add(inv.words, true)
			return
		}
		next, more := a.step(inv)
		if !more {
			return
		}
		inv = next
		unsure = cmp.Or(unsure, inv.unsure)
	}
}

// setFor marks the commands recorded from index start on as run with the
// unlisted variable name set: no rule naming their program covers them.
func (a *analyzer) setFor(start int, name string) {
	if name == "" {
		return
	}
	for i := start; i < len(a.cmds); i++ {
		if a.cmds[i].Beyond == "" {
			a.cmds[i].Beyond = setWith(name)
		}
	}
}

// step examines the first command of inv. It returns the wrapped command
// and true when there is one to examine next.
func (a *analyzer) step(inv invocation) (invocation, bool) {
	ws := inv.words
	switch wrapperName(ws[0].val) {
	case "sudo":
		return a.sudo(inv)
	case "env":
		return a.env(inv)
	case "xargs":
		return a.xargs(inv)
	case "nohup", "builtin", "exec", "command", "timeout", "nice", "stdbuf", "setsid", "time", "ionice", "taskset":
		return a.wrapper(inv)
	case "busybox":
		if len(ws) > 1 && ws[1].named() && !strings.HasPrefix(ws[1].val, "-") {
			inv.words = ws[1:] // busybox rm x runs the rm applet
			return inv, true
		}
		a.add(ws, inv.risky || len(ws) > 1)
	case "doas":
		return a.doas(inv)
	case "flock":
		return a.flock(inv)
	case "watch":
		a.watch(inv)
	case "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash":
		a.shell(inv)
	case "eval", "source", ".":
		a.add(ws, true)
	case "trap":
		a.trap(inv)
	case "compgen", "complete":
		a.completion(inv)
	case "bind":
		a.bind(inv)
	case "fc":
		a.fc(inv)
	case "jobs":
		return a.jobs(inv)
	case "alias":
		a.alias(inv)
	case "find":
		a.find(inv)
	case "read", "mapfile", "readarray", "getopts", "printf", "unset", "wait", "test", "[":
		a.add(ws, inv.risky || setsRiskyVar(ws))
		a.setsLater(ws)
	case "let": // let run as a command (builtin let x) evaluates its words
		a.add(ws, true)
	case "hash", "enable": // hash -p sets a command's path; enable -f loads code
		a.add(ws, inv.risky || len(ws) > 1)
	case "cd", "pushd", "popd":
		a.moved = true
		a.add(ws, inv.risky)
	default:
		a.program(inv)
	}
	return invocation{}, false
}

// wrapperName returns the program name a wrapper is known by: the word
// itself, or its base name when it lies in a system directory. A program
// elsewhere (./env) is not the wrapper.
func wrapperName(name string) string {
	if !strings.Contains(name, "/") {
		return name
	}
	switch path.Dir(name) {
	case "/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin":
		return path.Base(name)
	}
	return ""
}

// wrapperOptions returns the options of the simple wrappers. Options with
// side effects of their own (time -o FILE) are left out on purpose: the
// wrapper then stays a Dynamic command.
func wrapperOptions(name string) opts {
	switch name {
	case "exec":
		return opts{flags: "cl", valued: "a"}
	case "command":
		return opts{flags: "pvV"}
	case "timeout":
		return opts{flags: "v", valued: "sk", long: []string{"preserve-status", "foreground", "verbose"},
			longVal: []string{"signal", "kill-after"}}
	case "nice":
		return opts{valued: "n", longVal: []string{"adjustment"}, numeric: true}
	case "stdbuf":
		return opts{valued: "ioe", longVal: []string{"input", "output", "error"}}
	case "setsid":
		return opts{flags: "cfw", long: []string{"ctty", "fork", "wait"}}
	case "time":
		return opts{flags: "pqv", valued: "f", long: []string{"portability", "quiet", "verbose"},
			longVal: []string{"format"}}
	case "ionice": // -p, -P and -u act on running processes: unknown here
		return opts{flags: "t", valued: "cn", long: []string{"ignore"}, longVal: []string{"class", "classdata"}}
	case "taskset": // -p acts on a running process: unknown here
		return opts{flags: "ac", long: []string{"all-tasks", "cpu-list"}}
	}
	return opts{} // nohup, builtin
}

// wrapper unwraps nohup, builtin, exec, command, timeout, nice, stdbuf,
// setsid, time, ionice and taskset.
func (a *analyzer) wrapper(inv invocation) (invocation, bool) {
	ws := inv.words
	name := wrapperName(ws[0].val)
	rest, seen, ok := wrapperOptions(name).skip(ws[1:])
	if ok && (name == "timeout" || name == "taskset") {
		if len(rest) == 0 || !rest[0].lit {
			ok = false
		} else {
			rest = rest[1:] // the duration, the CPU mask
		}
	}
	_, lookup := seen["v"]
	_, describe := seen["V"]
	switch {
	case !ok:
		a.add(ws, true)
	case name == "command" && (lookup || describe):
		a.add(ws, inv.risky) // command -v only looks the name up
	case len(rest) == 0:
		// Alone, exec, command and builtin run nothing, but a risky
		// assignment before them may stay for the commands after.
		if inv.risky || (name != "exec" && name != "command" && name != "builtin") {
			a.add(ws, inv.risky)
		}
	default:
		inv.words = rest
		return inv, true
	}
	return invocation{}, false
}

// env unwraps env [options] [NAME=VALUE...] command.
func (a *analyzer) env(inv invocation) (invocation, bool) {
	ws := inv.words
	o := opts{flags: "i0v", valued: "uC", long: []string{"ignore-environment", "null", "debug"},
		longVal: []string{"unset", "chdir"}}
	if len(ws) > 1 && ws[1].val == "-" {
		ws = append([]word{ws[0]}, ws[2:]...) // "env -" is env -i
	}
	rest, seen, ok := o.skip(ws[1:])
	if !ok {
		a.add(inv.words, true) // includes -S, which splits a string into a command
		return invocation{}, false
	}
	a.noteChdir(seen, "C", "chdir")
	rest, set, ok := skipAssignments(rest)
	switch {
	case !ok:
		a.add(inv.words, true)
	case len(rest) == 0:
		a.add(inv.words, inv.risky || set.risky) // env alone prints the environment
	default:
		inv.words, inv.risky, inv.unsure = rest, inv.risky || set.risky, cmp.Or(inv.unsure, set.unsure)
		return inv, true
	}
	return invocation{}, false
}

// noteChdir records that a wrapper given one of the options (env -C,
// sudo -D) runs its command in another directory: as a cd to it before
// that command, so the folder is judged as cd's would be (an allowed git
// status must not run in a folder whose config the line chose).
func (a *analyzer) noteChdir(seen map[string]string, opts ...string) {
	for _, o := range opts {
		if dir, set := seen[o]; set {
			a.moved = true
			a.add([]word{{val: "cd", lit: true}, {val: dir, lit: true}}, false)
		}
	}
}

// sudo records sudo itself, so rules can deny it, then the command it runs.
func (a *analyzer) sudo(inv invocation) (invocation, bool) {
	ws := inv.words
	o := opts{flags: "AbBEHiKklNnPSsVve", valued: "CDghpRrTtUu",
		long: []string{"askpass", "background", "bell", "preserve-env", "edit", "help", "set-home",
			"login", "remove-timestamp", "reset-timestamp", "list", "non-interactive",
			"preserve-groups", "shell", "stdin", "validate", "version"},
		longVal: []string{"close-from", "chdir", "group", "host", "prompt", "chroot", "role", "type",
			"command-timeout", "other-user", "user"}}
	rest, seen, ok := o.skip(ws[1:])
	var set assigned
	if ok {
		rest, set, ok = skipAssignments(rest)
	}
	risky := set.risky
	if !ok {
		a.add(ws, true)
		return invocation{}, false
	}
	a.noteChdir(seen, "D", "chdir")
	for _, noRun := range []string{"e", "edit", "l", "list", "v", "validate", "V", "version", "K", "help"} {
		if _, set := seen[noRun]; set {
			a.add(ws, inv.risky || risky)
			return invocation{}, false
		}
	}
	_, shell := seen["s"]
	_, login := seen["i"]
	// sudo -s or -i without a command runs a shell reading standard input.
	a.add(ws, inv.risky || risky || (len(rest) == 0 && (shell || login)))
	if len(rest) == 0 {
		return invocation{}, false
	}
	inv.words, inv.risky, inv.unsure = rest, inv.risky || risky, cmp.Or(inv.unsure, set.unsure)
	return inv, true
}

// xargs unwraps xargs [options] [command]: the command (echo by default)
// gets more arguments from standard input, and with -I (or -i) every word
// holding the replacement string is only known at run time.
func (a *analyzer) xargs(inv invocation) (invocation, bool) {
	ws := inv.words
	o := opts{flags: "0rtpxo", valued: "adEILnPs", optional: "eil",
		long: []string{"null", "no-run-if-empty", "verbose", "interactive", "exit", "open-tty",
			"show-limits", "replace"},
		longVal: []string{"arg-file", "delimiter", "eof", "max-lines", "max-args", "max-procs",
			"max-chars", "process-slot-var"}}
	rest, seen, ok := o.skip(ws[1:])
	if !ok {
		a.add(ws, true)
		return invocation{}, false
	}
	repl, hasRepl := seen["I"]
	if v, set := seen["i"]; set {
		repl, hasRepl = v, true
	}
	if v, set := seen["replace"]; set {
		repl, hasRepl = v, true
	}
	if hasRepl && repl == "" {
		repl = "{}"
	}
	if len(rest) == 0 {
		rest = []word{{val: "echo", lit: true}}
	}
	if hasRepl {
		rest = unknownWhere(rest, repl)
	}
	// The command's standard input is xargs's: not the statement's.
	return invocation{words: rest, depth: inv.depth, risky: inv.risky}, true
}

// unknownWhere returns a copy of ws in which words containing marker
// (a placeholder filled in at run time) are no longer literal.
func unknownWhere(ws []word, marker string) []word {
	out := make([]word, len(ws))
	for i, w := range ws {
		if strings.Contains(w.val, marker) {
			w.lit = false
		}
		out[i] = w
	}
	return out
}

// assigned is what NAME=VALUE words set for a command: whether a risky
// variable, and the first unlisted one.
type assigned struct {
	risky  bool
	unsure string
}

// note adds the variable name to what is set.
func (s *assigned) note(name string) {
	s.risky = s.risky || riskyVar(name)
	if s.unsure == "" && unlistedVar(name) {
		s.unsure = name
	}
}

// skipAssignments skips NAME=VALUE words (env and sudo set them for the
// command) and says what they set. A word that is not literal might be an
// assignment or the command: false.
func skipAssignments(ws []word) ([]word, assigned, bool) {
	var set assigned
	for i, w := range ws {
		if !w.lit {
			return nil, assigned{}, false
		}
		name, _, isAssign := strings.Cut(w.val, "=")
		if !isAssign || name == "" {
			return ws[i:], set, true
		}
		set.note(name)
	}
	return nil, set, true
}

// setsRiskyVar reports whether a builtin that assigns or tests variables
// named by its arguments (read, mapfile, readarray, getopts, unset,
// printf -v, wait -p, test -v) may set a risky one or evaluate code: an
// argument names a risky variable, a name is only known at run time, or a
// name holds a subscript (a[$x]), which bash evaluates as arithmetic.
// mapfile -C runs its callback as code.
func setsRiskyVar(ws []word) bool {
	name := wrapperName(ws[0].val)
	switch name {
	case "printf":
		return badNameAfter(ws, "-v")
	case "wait":
		return badNameAfter(ws, "-p")
	case "test", "[":
		return testEvaluates(ws)
	}
	for _, w := range ws[1:] {
		callback := strings.HasPrefix(w.val, "-") && !strings.HasPrefix(w.val, "--") && strings.Contains(w.val, "C")
		if !w.lit || riskyVar(w.val) || strings.Contains(w.val, "[") ||
			(callback && (name == "mapfile" || name == "readarray")) {
			return true
		}
	}
	return false
}

// setsLater notes the variables a builtin assigns for the commands after
// it (setLater).
func (a *analyzer) setsLater(ws []word) {
	for _, name := range assignedNames(ws) {
		a.setLater(name)
	}
}

// assignedNames are the variables a builtin assigns: read's operands and
// -a array, mapfile's array, getopts' name, printf -v and wait -p. When
// its options cannot be read, every literal word may be one.
func assignedNames(ws []word) []string {
	var o opts
	nameOpt, first, count := "", 0, 0 // operands first.. name variables (count -1: all)
	switch wrapperName(ws[0].val) {
	case "read":
		o, nameOpt, count = opts{flags: "ers", valued: "adinNptu"}, "a", -1
	case "mapfile", "readarray":
		o, count = opts{flags: "t", valued: "dnOsuCc"}, 1
	case "getopts": // getopts OPTSTRING NAME [ARG...]
		first, count = 1, 1
	case "printf":
		o, nameOpt = opts{valued: "v"}, "v"
	case "wait":
		o, nameOpt = opts{flags: "fn", valued: "p"}, "p"
	default:
		return nil
	}
	rest, seen, ok := o.skip(ws[1:])
	if !ok {
		rest, seen, first, count = ws[1:], nil, 0, -1
	}
	var names []string
	if v, set := seen[nameOpt]; set && nameOpt != "" {
		names = append(names, v)
	}
	rest = rest[min(first, len(rest)):]
	if count >= 0 {
		rest = rest[:min(count, len(rest))]
	}
	for _, w := range rest {
		if w.lit {
			names = append(names, w.val)
		}
	}
	return names
}

// badNameAfter reports whether the leading options of a builtin (printf
// -v NAME, wait -p NAME) may name anything but a plain, harmless variable:
// the option's value is not a plain name, or a word before the operands
// is only known at run time (it could be the option itself).
func badNameAfter(ws []word, opt string) bool {
	for i := 1; i < len(ws); i++ {
		switch v := ws[i].val; {
		case !ws[i].lit:
			return !numericParam(v)
		case v == "--" || !strings.HasPrefix(v, "-"):
			return false // the operands begin
		case v == opt:
			if i+1 == len(ws) {
				return false
			}
			next := ws[i+1]
			return !next.lit || !isName(next.val) || riskyVar(next.val)
		case strings.HasPrefix(v, opt):
			name := v[len(opt):] // glued: printf -vNAME
			return !isName(name) || riskyVar(name)
		}
	}
	return false
}

// testEvaluates reports whether test or [ may be given -v NAME or -R NAME
// with a name bash evaluates (a[$(cmd)]): written so, or through an
// unquoted expansion (which may split into "-v" and a name) or a quoted
// one followed by a word known only at run time or holding a subscript.
func testEvaluates(ws []word) bool {
	for i := 1; i < len(ws); i++ {
		w := ws[i]
		quoted := len(w.val) > 1 && strings.HasPrefix(w.val, `"`) && strings.HasSuffix(w.val, `"`)
		switch {
		case !w.lit && !quoted:
			return true
		case !w.lit && i+1 < len(ws) && (!ws[i+1].lit || strings.Contains(ws[i+1].val, "[")):
			return true
		case w.lit && (w.val == "-v" || w.val == "-R") && i+1 < len(ws):
			if next := ws[i+1]; !next.lit || !isName(next.val) {
				return true
			}
		}
	}
	return false
}

// numericParam reports whether a word is a special parameter that always
// holds a number ($!, $$, $?, $#).
func numericParam(v string) bool {
	switch v {
	case "$!", "$$", "$?", "$#":
		return true
	}
	return false
}
