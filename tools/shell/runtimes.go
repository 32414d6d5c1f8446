package shell

import (
	"path"
	"slices"
	"strings"
)

// denoSource reads where deno's code comes from: deno alone and deno repl
// read standard input, deno eval runs its argument, and deno run (or
// deno FILE) runs a script unless it is "-" or a descriptor; a word known
// only at run time may be any of these.
func denoSource(ws []word) codeSource {
	sub, rest := firstOperand(ws[1:])
	switch {
	case sub == nil && len(ws) == 2 && (ws[1].val == "--version" || ws[1].val == "-V" || ws[1].val == "--help" || ws[1].val == "-h"):
		return codeSource{from: codeNone}
	case sub == nil:
		return codeSource{from: codeStdin}
	case !sub.named():
		return codeSource{from: codeUnknown, option: "a word known only at run time"}
	case sub.val == "eval":
		return codeSource{from: codeArg, option: "eval"}
	case sub.val == "repl" || sub.val == "-" || stdinPath(sub.val):
		return codeSource{from: codeStdin, option: sub.val}
	case sub.val == "run":
		return scriptOperand(rest)
	}
	return codeSource{}
}

// bunSource reads where bun's code comes from: -e, --eval, -p and
// --print run their argument, --preload, -r and --require load modules
// the line chooses, bun repl and "-" read standard input; anything else
// runs a file, a package script or a subcommand.
func bunSource(ws []word) codeSource {
	for _, w := range ws[1:] {
		name, _, _ := strings.Cut(w.val, "=")
		switch {
		case !w.named():
			return codeSource{from: codeUnknown, option: "a word known only at run time"}
		case name == "-e" || name == "--eval" || name == "-p" || name == "--print":
			return codeSource{from: codeArg, option: name}
		case name == "-r" || name == "--preload" || name == "--require" || name == "--import":
			return codeSource{from: codePreload, option: name}
		case w.val == "-" || w.val == "repl" || stdinPath(w.val):
			return codeSource{from: codeStdin, option: w.val}
		}
	}
	return codeSource{}
}

// firstOperand returns the first word that is not an option, and the
// words after it (nil when there is none).
func firstOperand(ws []word) (*word, []word) {
	for i := range ws {
		if !ws[i].lit || !strings.HasPrefix(ws[i].val, "-") || ws[i].val == "-" {
			return &ws[i], ws[i+1:]
		}
	}
	return nil, nil
}

// scriptOperand judges the words after a run subcommand: its first
// operand is the script, unless it is only known at run time; no operand
// at all, or "-" or a descriptor anywhere (an option before the script
// may take a value), reads standard input.
func scriptOperand(ws []word) codeSource {
	for _, w := range ws {
		if w.val == "-" || stdinPath(w.val) {
			return codeSource{from: codeStdin, option: w.val}
		}
	}
	script, _ := firstOperand(ws)
	switch {
	case script == nil:
		return codeSource{from: codeStdin}
	case !script.named():
		return codeSource{from: codeUnknown, option: "a script named only at run time"}
	}
	return codeSource{}
}

// runnerSubs returns the subcommands through which a runner runs another
// program of the call's choosing in a prepared environment ("" when the
// program itself does: npx node), or nil for a program that is no runner.
func runnerSubs(name string) []string {
	switch name {
	case "uvx", "npx", "bunx", "dotenv":
		return []string{""}
	case "uv", "poetry", "pipenv", "pdm", "hatch", "rye", "pipx", "conda", "mamba", "micromamba", "devbox":
		return []string{"run"}
	case "bundle", "npm", "pyenv", "rbenv", "nodenv", "asdf", "direnv":
		return []string{"exec"}
	case "pixi":
		return []string{"run", "exec"}
	case "pnpm":
		return []string{"exec", "dlx"}
	case "yarn":
		return []string{"exec", "run", "node"}
	case "mise":
		return []string{"exec", "x"}
	case "nix":
		return []string{"shell", "develop"}
	}
	return nil
}

// runnerCode judges a runner running an interpreter: every word after the
// runner's subcommand that names an interpreter is read as the start of
// its command (an option's value may name one too, so each is read), and
// the first that runs code no rule names, or a module, decides. ok is
// false when the command is no runner or runs no interpreter.
func runnerCode(ws []word) (codeSource, bool) {
	subs := runnerSubs(path.Base(ws[0].val))
	if subs == nil {
		return codeSource{}, false
	}
	if subs[0] != "" {
		sub, _ := firstOperand(ws[1:])
		if sub == nil || !sub.named() || !slices.Contains(subs, sub.val) {
			return codeSource{}, false
		}
	}
	for k := 1; k < len(ws); k++ {
		l, ok := langOf(ws[k].val)
		if !ok || !ws[k].named() {
			continue
		}
		src := l.read(ws[k:])
		if src.from == codeModule {
			src.fixed += k
		}
		if src.from != codeFile && src.from != codeNone {
			return src, true
		}
	}
	return codeSource{}, false
}

// program records a command that is no wrapper or builtin of interest:
// an interpreter, a runner running one, or any other program.
func (a *analyzer) program(inv invocation) {
	ws := inv.words
	if l, ok := langOf(ws[0].val); ok {
		a.interpreter(inv, l)
		return
	}
	at := a.add(ws, inv.risky)
	if src, ok := runnerCode(ws); ok {
		a.judged(at, path.Base(ws[0].val), src)
	}
}
