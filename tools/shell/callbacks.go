package shell

import "strings"

// Builtins that run code given in an option: compgen -C, -W and -F, complete
// -C, -W and -F, bind -x, fc and jobs -x. (mapfile -C is setsRiskyVar's,
// trap's code trap's, eval and source are always Dynamic, and command,
// builtin and exec are unwrapped like any wrapper.)

// completion records compgen or complete. Their -C command is evaluated
// with the completion's words appended to it, so the command that runs is
// only known then, as with mapfile -C; their -W word list undergoes every
// expansion when it is used, so one holding $, a backquote or a process
// substitution runs code. Either makes the command Dynamic, as do options
// that cannot be read. -F calls a function: it is recorded as a command
// of that name after compgen, as a call of the function would be, so a
// rule must allow it too.
func (a *analyzer) completion(inv invocation) {
	ws := inv.words
	// -p and -r are complete's print and remove.
	_, seen, ok := opts{flags: "abcdefgjksuvDEIpr", valued: "oAGWFCXPSV"}.skip(ws[1:])
	_, command := seen["C"]
	list, hasList := seen["W"]
	a.add(ws, inv.risky || !ok || command || (hasList && strings.ContainsAny(list, "$`<>")))
	if fn, set := seen["F"]; ok && set {
		a.add([]word{{val: fn, lit: true}}, inv.risky)
	}
}

// bind records bind: bind -x binds a key to a shell command, code that
// would run when the key is pressed, and an option word known only at run
// time may be -x. Either makes it Dynamic.
func (a *analyzer) bind(inv invocation) {
	ws := inv.words
	dynamic := inv.risky
	for _, w := range ws[1:] {
		if w.val == "--" {
			break
		}
		if !w.lit || (strings.HasPrefix(w.val, "-") && strings.Contains(w.val, "x")) {
			dynamic = true
		}
	}
	a.add(ws, dynamic)
}

// fc records fc: it runs commands again from the shell's history, which a
// line can fill (history -s), after passing them through an editor it
// names (-e); only fc -l, which lists them, runs nothing. Anything else
// is Dynamic.
func (a *analyzer) fc(inv invocation) {
	ws := inv.words
	_, seen, ok := opts{flags: "lnrs", valued: "e", numeric: true}.skip(ws[1:])
	_, list := seen["l"]
	_, again := seen["s"]
	_, edit := seen["e"]
	a.add(ws, inv.risky || !ok || !list || again || edit)
}

// jobs records jobs; jobs -x runs the command after its options, with
// the job specifications (%1) in its words replaced at run time: it is
// unwrapped like a wrapper.
func (a *analyzer) jobs(inv invocation) (invocation, bool) {
	ws := inv.words
	rest, seen, ok := opts{flags: "lnprsx"}.skip(ws[1:])
	_, run := seen["x"]
	switch {
	case !ok:
		a.add(ws, true)
	case run && len(rest) > 0:
		inv.words = unknownWhere(rest, "%")
		return inv, true
	default:
		a.add(ws, inv.risky)
	}
	return invocation{}, false
}
