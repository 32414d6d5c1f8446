package shell

import (
	"cmp"
	"path"
	"slices"
	"strings"
)

// lang is how a language interpreter is told which code to run: a script
// file named by its first operand, or code given some other way (an
// option's value, standard input, a module it looks up), which no rule
// naming the interpreter can vouch for.
type lang struct {
	// opts are its ordinary options: flags and options taking a value.
	opts
	// code are short options whose value is code (python -c, node -e);
	// longCode the long ones (--eval).
	code     string
	longCode []string
	// module are short options whose value names a module the
	// interpreter looks up and runs, ending its options (python -m).
	module string
	// preload are short options that load code the call chooses before
	// the script (perl -M, ruby -r, lua -l, php -d); longPreload the long
	// ones (--require).
	preload     string
	longPreload []string
	// stdin are short options after which it reads code from standard
	// input, script or not (-i: interactive after the script).
	stdin     string
	longStdin []string
	// quit are short options with which it runs no code (--version).
	quit     string
	longQuit []string
	// file are short options whose value is the script file (php -f);
	// longFile the long ones (R --file).
	file     string
	longFile []string
	// idle are short options with which, given no script, it reads no
	// standard input (lua -v prints its version, but runs -e code);
	// longIdle the long ones (node --test runs the test files it finds).
	idle     string
	longIdle []string
	// runner, when set, reads the words instead of the fields above: an
	// interpreter driven by subcommands (deno run, bun repl).
	runner func([]word) codeSource
	// noOperand says its operands are never a script: without -e or -f
	// it reads code from standard input (R).
	noOperand bool
	// freeLong accepts long options it does not know in the glued form
	// (--max-old-space-size=4096) and negations, which take no value
	// (--no-addons): the interpreter's own options through which code is
	// chosen are all listed above.
	freeLong bool
}

// langTable returns the interpreter known by a program name without a
// version suffix.
func langTable(base string) (lang, bool) {
	switch base {
	case "python":
		return lang{
			opts: opts{flags: "bBdEIOPqsSuvx3tR", valued: "WXQ", longVal: []string{"check-hash-based-pycs"}},
			code: "c", module: "m", stdin: "i",
			quit: "hV", longQuit: []string{"help", "version", "help-env", "help-xoptions", "help-all"},
		}, true
	case "node":
		return lang{
			opts: opts{flags: "c", valued: "C",
				long: []string{"enable-source-maps", "no-warnings", "trace-warnings", "trace-deprecation", "no-deprecation",
					"experimental-vm-modules", "experimental-strip-types", "inspect", "inspect-brk", "watch", "check",
					"preserve-symlinks", "expose-gc", "abort-on-uncaught-exception"},
				longVal: []string{"conditions", "input-type", "title", "inspect-port", "test-reporter", "test-name-pattern", "watch-path"}},
			code: "ep", longCode: []string{"eval", "print"},
			preload: "r", longPreload: []string{"require", "import", "loader", "experimental-loader", "env-file",
				"env-file-if-exists", "run"},
			stdin: "i", longStdin: []string{"interactive"},
			quit: "hv", longQuit: []string{"help", "version"},
			longIdle: []string{"test"}, freeLong: true,
		}, true
	case "ruby":
		return lang{opts: opts{flags: "acdlnpsSvwUy", valued: "CEFI", optional: "x0WKT"},
			code: "e", preload: "ri", quit: "h", longQuit: []string{"help", "version"}}, true
	case "perl":
		return lang{opts: opts{flags: "acnpsStTuUwWXf", valued: "IF", optional: "x0lDCV"},
			code: "eE", preload: "Mmid", quit: "hv", idle: "V"}, true
	case "php":
		return lang{opts: opts{flags: "nqeHlsw", valued: "t"}, code: "rRBE", preload: "dczFS", stdin: "a", file: "f",
			quit: "himv", longQuit: []string{"help", "version", "ini"}}, true
	}
	return moreLangs(base)
}

// moreLangs returns the interpreters langTable leaves out.
func moreLangs(base string) (lang, bool) {
	switch base {
	case "lua":
		return lang{opts: opts{flags: "EW"}, code: "e", preload: "l", stdin: "i", idle: "v"}, true
	case "luajit":
		return lang{opts: opts{flags: "bEO"}, code: "e", preload: "lj", stdin: "i", idle: "v"}, true
	case "julia":
		return lang{
			opts: opts{flags: "q", valued: "ptJO", long: []string{"quiet", "banner", "color"},
				longVal: []string{"project", "threads", "procs", "startup-file", "history-file", "sysimage", "optimize"}},
			code: "eE", longCode: []string{"eval", "print"}, preload: "L", longPreload: []string{"load"},
			stdin: "i", quit: "hv", longQuit: []string{"help", "version"},
		}, true
	case "Rscript":
		return lang{
			opts: opts{long: []string{"verbose", "vanilla", "no-environ", "no-site-file", "no-init-file", "no-restore", "no-save"},
				longVal: []string{"default-packages"}},
			code: "e", longQuit: []string{"help", "version"},
		}, true
	case "R":
		return lang{
			opts: opts{flags: "qsv", long: []string{"vanilla", "no-save", "save", "no-restore", "no-environ", "no-site-file",
				"no-init-file", "quiet", "silent", "slave", "no-echo", "interactive", "verbose"}},
			code: "e", file: "f", longFile: []string{"file"}, quit: "h", longQuit: []string{"help", "version"}, noOperand: true,
		}, true
	case "deno":
		return lang{runner: denoSource}, true
	case "bun":
		return lang{runner: bunSource}, true
	case "tclsh":
		return lang{opts: opts{longVal: []string{"encoding"}}}, true
	case "osascript":
		return lang{opts: opts{valued: "ls"}, code: "e", stdin: "i"}, true
	case "fish":
		return lang{
			opts: opts{flags: "lnNPD", valued: "dpo", long: []string{"login", "no-execute", "no-config", "private", "print-rusage-self"},
				longVal: []string{"debug", "profile", "features", "debug-output"}},
			code: "cC", longCode: []string{"command", "init-command"}, stdin: "i", longStdin: []string{"interactive"},
			quit: "hv", longQuit: []string{"help", "version"},
		}, true
	}
	return lang{}, false
}

// langOf returns the interpreter a program name runs: python3, python3.12,
// pypy3 and .venv/bin/python are python; nodejs is node; wish is tclsh.
func langOf(name string) (lang, bool) {
	base := strings.TrimRight(path.Base(name), "0123456789.")
	switch base {
	case "pypy", "ipython":
		base = "python"
	case "nodejs":
		base = "node"
	case "wish":
		base = "tclsh"
	}
	return langTable(base)
}

// Where an interpreter's code comes from, besides a script file.
const (
	codeFile    = iota // the first operand, or -f FILE
	codeNone           // it runs no code (--version)
	codeArg            // an option's value (-c, -e)
	codeStdin          // standard input: no script, "-", /dev/stdin, -i
	codeModule         // a module it looks up (-m)
	codePreload        // code loaded by an option before the script (-r)
	codeUnknown        // an option it does not know, or a word known only at run time
)

// codeSource is what an interpreter's words say about the code it runs:
// where it comes from, the option that says so, and for a module the
// number of leading words that name it.
type codeSource struct {
	from   int
	option string
	fixed  int
}

// interpreter records a language interpreter. Code that is not a script
// file named by the command's words (code on the command line, on standard
// input, loaded by an option) is beyond any rule naming the interpreter;
// a module it looks up (python -m pytest) must be named by the rule.
func (a *analyzer) interpreter(inv invocation, l lang) {
	ws := inv.words
	a.judged(a.add(ws, inv.risky), path.Base(ws[0].val), l.read(ws))
}

// read returns where the interpreter's code comes from.
func (l lang) read(ws []word) codeSource {
	if l.runner != nil {
		return l.runner(ws)
	}
	return l.source(ws)
}

// judged gives the command recorded at index at what src says of the
// code it runs: a reason it is beyond any rule, or the words a rule must
// name.
func (a *analyzer) judged(at int, name string, src codeSource) {
	var why string
	switch src.from {
	case codeArg:
		why = src.option + " runs code given on its command line"
	case codeStdin:
		why = "reading code from standard input"
	case codePreload:
		why = src.option + " loads code the line chooses"
	case codeUnknown:
		why = "with " + src.option + ", which may choose the code " + name + " runs"
	case codeModule:
		a.cmds[at].Fixed = src.fixed
	}
	if why != "" && a.cmds[at].Beyond == "" {
		a.cmds[at].Beyond = why
	}
}

// source reads an interpreter's options up to its script.
func (l lang) source(ws []word) codeSource {
	interactive, idle := "", false
	for i := 1; i < len(ws); i++ {
		w := ws[i]
		v := w.val
		switch {
		case !w.named():
			return codeSource{from: codeUnknown, option: "a word known only at run time"}
		case v == "-":
			return codeSource{from: codeStdin, option: v}
		case v == "--":
			return l.script(ws[i+1:], interactive)
		case len(v) < 2 || v[0] != '-':
			return l.script(ws[i:], interactive)
		}
		var st step
		if strings.HasPrefix(v, "--") {
			st = l.long(v[2:], ws[i+1:])
		} else {
			st = l.short(v[1:], ws[i+1:])
		}
		if st.done {
			if st.src.from == codeModule {
				st.src.fixed = i + 1 + st.used
			}
			if st.src.from == codeFile && interactive != "" {
				return codeSource{from: codeStdin, option: interactive}
			}
			return st.src
		}
		interactive = cmp.Or(st.interactive, interactive)
		idle = idle || st.idle
		i += st.used
	}
	if idle && interactive == "" {
		return codeSource{}
	}
	return l.script(nil, interactive)
}

// step is what one option word says: the words after it that it used as
// its value, the option that makes the interpreter read standard input
// too, whether it keeps it from reading standard input when no script is
// given, and, when done, where its code comes from.
type step struct {
	used        int
	interactive string
	idle        bool
	done        bool
	src         codeSource
}

// settled is the step that decides where the code comes from.
func settled(from int, option string, used int) step {
	return step{used: used, done: true, src: codeSource{from: from, option: option}}
}

// short reads a cluster of short options (the text after "-").
func (l lang) short(cluster string, after []word) step {
	var st step
	for j := 0; j < len(cluster); j++ {
		c, glued := cluster[j:j+1], cluster[j+1:]
		opt := "-" + c
		switch {
		case strings.Contains(l.quit, c):
			return settled(codeNone, opt, 0)
		case strings.Contains(l.code, c):
			return settled(codeArg, opt, 0)
		case strings.Contains(l.preload, c):
			return settled(codePreload, opt, 0)
		case strings.Contains(l.stdin, c):
			st.interactive = opt
		case strings.Contains(l.idle, c):
			st.idle = true
			if strings.Contains(l.optional, c) {
				return st // perl -V:name
			}
		case strings.Contains(l.flags, c):
		case strings.Contains(l.optional, c):
			return st
		case strings.Contains(l.module, c), strings.Contains(l.file, c), strings.Contains(l.valued, c):
			val, used, ok := optionValue(glued, after)
			switch {
			case !ok:
				return settled(codeUnknown, opt, 0)
			case strings.Contains(l.module, c):
				return settled(codeModule, opt, used)
			case strings.Contains(l.file, c):
				return l.fileStep(val, opt, used)
			}
			st.used = used
			return st
		default:
			return settled(codeUnknown, opt, 0)
		}
	}
	return st
}

// long reads one long option (the text after "--").
func (l lang) long(opt string, after []word) step {
	name, _, glued := strings.Cut(opt, "=")
	switch {
	case slices.Contains(l.longQuit, name):
		return settled(codeNone, "--"+name, 0)
	case slices.Contains(l.longCode, name):
		return settled(codeArg, "--"+name, 0)
	case slices.Contains(l.longPreload, name):
		return settled(codePreload, "--"+name, 0)
	case slices.Contains(l.longStdin, name):
		return step{interactive: "--" + name}
	case slices.Contains(l.longIdle, name):
		return step{idle: true}
	case slices.Contains(l.longFile, name):
		_, val, _ := strings.Cut(opt, "=")
		val, used, ok := optionValue(val, after)
		if !ok {
			return settled(codeUnknown, "--"+name, 0)
		}
		return l.fileStep(val, "--"+name, used)
	case slices.Contains(l.opts.long, name), l.freeLong && (glued || strings.HasPrefix(name, "no-")):
		return step{}
	case slices.Contains(l.longVal, name):
		if glued {
			return step{}
		}
		if _, used, ok := optionValue("", after); ok {
			return step{used: used}
		}
	}
	return settled(codeUnknown, "--"+name, 0)
}

// fileStep settles on a script file named by an option (php -f FILE).
func (l lang) fileStep(val, opt string, used int) step {
	if stdinPath(val) {
		return settled(codeStdin, opt+" "+val, used)
	}
	return settled(codeFile, "", used)
}

// optionValue is an option's value: glued to it, else the next word,
// which must be a plain literal.
func optionValue(glued string, after []word) (string, int, bool) {
	switch {
	case glued != "":
		return glued, 0, true
	case len(after) == 0 || !after[0].named():
		return "", 0, false
	}
	return after[0].val, 1, true
}

// script judges the operands after the options: the first names the
// script, unless it is standard input in disguise.
func (l lang) script(rest []word, interactive string) codeSource {
	switch {
	case len(rest) == 0 || l.noOperand:
		return codeSource{from: codeStdin}
	case rest[0].val == "-":
		return codeSource{from: codeStdin, option: "-"}
	case !rest[0].named():
		return codeSource{from: codeUnknown, option: "a script named only at run time"}
	case stdinPath(rest[0].val):
		return codeSource{from: codeStdin, option: rest[0].val}
	case interactive != "":
		return codeSource{from: codeStdin, option: interactive}
	}
	return codeSource{}
}

// stdinPath reports whether a script path reads a descriptor rather than
// a file: /dev/stdin, /dev/fd/N, /proc/self/fd/N and the like, also
// reached from the working folder (../../dev/stdin): a relative path
// climbing out of it may climb to the root.
func stdinPath(p string) bool {
	p = path.Clean(p)
	for strings.HasPrefix(p, "../") {
		p = "/" + strings.TrimLeft(p, "./")
	}
	return p == "/dev/stdin" || strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/")
}
