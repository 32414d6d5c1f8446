package shell

import "strings"

// doas records doas itself, so rules can deny it, then the command it
// runs; doas -s without a command runs a shell reading standard input.
func (a *analyzer) doas(inv invocation) (invocation, bool) {
	ws := inv.words
	rest, seen, ok := opts{flags: "nsL", valued: "uC"}.skip(ws[1:])
	_, shell := seen["s"]
	_, check := seen["C"]
	_, clear := seen["L"]
	a.add(ws, inv.risky || !ok || (shell && len(rest) == 0))
	if !ok || check || clear || len(rest) == 0 {
		return invocation{}, false
	}
	inv.words = rest
	return inv, true
}

// flock unwraps flock [options] FILE command, and parses the script of
// flock FILE -c 'script'. flock FD (a descriptor) runs nothing.
func (a *analyzer) flock(inv invocation) (invocation, bool) {
	ws := inv.words
	o := opts{flags: "sxeunoF", valued: "wEc",
		long:    []string{"shared", "exclusive", "unlock", "nonblock", "nb", "close", "no-fork", "verbose"},
		longVal: []string{"timeout", "wait", "conflict-exit-code", "command"}}
	rest, seen, ok := o.skip(ws[1:])
	if ok && len(rest) > 0 {
		var after map[string]string
		rest, after, ok = o.skip(rest[1:])
		for k, v := range after {
			seen[k] = v
		}
	}
	script, hasScript := seen["c"]
	if v, set := seen["command"]; set {
		script, hasScript = v, true
	}
	switch {
	case !ok:
		a.add(ws, true)
	case hasScript:
		if !a.nested(inv, script) {
			a.add(ws, true)
		}
	case len(rest) == 0:
		a.add(ws, inv.risky)
	default:
		inv.words = rest
		return inv, true
	}
	return invocation{}, false
}

// watch parses the command watch runs again and again: its words joined
// by spaces are a script for sh -c, or with -x (--exec) a command.
func (a *analyzer) watch(inv invocation) {
	ws := inv.words
	o := opts{flags: "bcCegptwx", valued: "nq", optional: "d",
		long: []string{"beep", "color", "no-color", "errexit", "chgexit", "precise", "no-title", "no-wrap",
			"exec", "differences", "no-linewrap"},
		longVal: []string{"interval", "equexit"}}
	rest, seen, ok := o.skip(ws[1:])
	_, exec := seen["x"]
	if _, set := seen["exec"]; set {
		exec = true
	}
	switch {
	case !ok:
		a.add(ws, true)
	case len(rest) == 0:
		a.add(ws, inv.risky)
	case exec:
		a.command(invocation{words: rest, depth: inv.depth, risky: inv.risky})
	default:
		for _, w := range rest {
			if !w.lit {
				a.add(ws, true)
				return
			}
		}
		if !a.nested(inv, strings.Join(vals(rest), " ")) {
			a.add(ws, true)
		}
	}
}
