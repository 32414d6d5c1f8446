package shell

import (
	"path"
	"slices"
	"strings"
)

// runTime is the reason given for an argument only known at run time to a
// program with options that reach beyond its name: it may be one of them.
const runTime = "an argument known only at run time may be an option that runs programs or writes files"

// reach lists the options through which a program runs other programs or
// writes files.
type reach struct {
	// short are short options, also inside a cluster (-xzf).
	short string
	// long are --long options; GNU-style unique prefixes match too.
	long []string
	// single are long options written with one dash (find -exec, go -o).
	single []string
	// prefix marks arguments starting with it (less +cmd, vim +cmd).
	prefix string
	// assigns marks NAME=VALUE arguments (make CC=...).
	assigns bool
	// oldStyle reads the first argument as a cluster even without a dash
	// (tar xzf).
	oldStyle bool
}

// reachOf returns the reaching options of a program known to have some.
func reachOf(name string) (reach, bool) {
	switch name {
	case "find":
		return reach{single: []string{"exec", "execdir", "ok", "okdir", "delete", "fprint", "fprint0", "fprintf", "fls"}}, true
	case "tar", "gtar", "bsdtar":
		return reach{short: "CIF", long: []string{"to-command", "checkpoint-action", "use-compress-program",
			"rsh-command", "info-script", "new-volume-script", "rmt-command", "directory"}, oldStyle: true}, true
	case "rsync":
		return reach{short: "e", long: []string{"rsh", "rsync-path"}}, true
	case "less", "more", "most":
		return reach{prefix: "+", long: []string{"lesskey-file", "lesskey-src"}}, true
	case "man":
		return reach{short: "PH", long: []string{"pager", "html"}}, true
	case "vi", "vim", "nvim", "view", "vimdiff", "ex", "gvim":
		return reach{short: "cS", long: []string{"cmd"}, prefix: "+"}, true
	case "curl":
		return reach{short: "oODcK", long: []string{"output", "remote-name", "remote-name-all", "dump-header",
			"cookie-jar", "config", "trace", "trace-ascii", "libcurl", "stderr", "output-dir", "etag-save", "hsts", "alt-svc"}}, true
	case "wget":
		return reach{short: "oOaPe", long: []string{"output-document", "output-file", "append-output",
			"directory-prefix", "execute", "config", "use-askpass"}}, true
	case "sort":
		return reach{short: "o", long: []string{"output", "compress-program"}}, true
	case "rg":
		return reach{long: []string{"pre"}}, true
	case "fd", "fdfind":
		return reach{short: "xX", long: []string{"exec", "exec-batch"}}, true
	case "go":
		return reach{single: []string{"toolexec", "exec", "o", "overlay", "C", "modfile"}}, true
	case "cargo":
		return reach{short: "Z", long: []string{"config"}}, true
	case "npm", "pnpm", "yarn", "npx", "bun":
		return reach{long: []string{"script-shell", "userconfig", "globalconfig", "node-options"}}, true
	case "make", "gmake":
		return reach{short: "CfE", long: []string{"directory", "file", "makefile", "eval"}, assigns: true}, true
	case "zip":
		return reach{single: []string{"TT"}, long: []string{"unzip-command"}}, true
	case "python", "python3", "python2", "pypy", "pypy3":
		return reach{short: "c"}, true
	case "node", "nodejs":
		return reach{short: "epr", long: []string{"eval", "print", "require", "import", "loader", "experimental-loader"}}, true
	case "perl":
		return reach{short: "eEi"}, true
	case "ruby":
		return reach{short: "e"}, true
	case "php":
		return reach{short: "r"}, true
	}
	return reach{}, false
}

// beyond returns why no allow rule may cover the command ws: an option
// through which it runs other programs or writes files. "" when none.
func beyond(ws []word) string {
	if len(ws) == 0 || !ws[0].named() {
		return ""
	}
	name, args := path.Base(ws[0].val), ws[1:]
	switch name {
	case "git":
		return gitBeyond(args)
	case "sed", "gsed":
		return sedBeyond(name, args)
	case "awk", "gawk", "mawk", "nawk":
		return awkBeyond(name, args)
	case "ssh", "scp", "sftp":
		return sshBeyond(name, args)
	}
	if r, ok := reachOf(name); ok {
		return r.find(name, args)
	}
	return ""
}

// find returns the first reaching option among args.
func (r reach) find(name string, args []word) string {
	for i, w := range args {
		v := w.val
		switch {
		case !w.lit:
			return runTime
		case v == "--" && len(r.single) == 0:
			return ""
		case r.prefix != "" && strings.HasPrefix(v, r.prefix):
			return name + " " + r.prefix + "command"
		case r.assigns && !strings.HasPrefix(v, "-") && strings.Contains(v, "="):
			return name + " with a variable set on its command line"
		}
		if got := r.option(v, i == 0); got != "" {
			return name + " " + got
		}
	}
	return ""
}

// option returns the reaching option the word v is or holds, if any.
func (r reach) option(v string, first bool) string {
	bare := strings.TrimLeft(v, "-")
	name, _, _ := strings.Cut(bare, "=")
	dashes := len(v) - len(bare)
	switch {
	case dashes >= 1 && slices.Contains(r.single, name):
		return "-" + name
	case dashes == 2 && name != "":
		for _, l := range r.long {
			if strings.HasPrefix(l, name) { // GNU accepts unique prefixes
				return "--" + l
			}
		}
	case dashes == 1 && len(r.single) == 0, dashes == 0 && first && r.oldStyle:
		for _, c := range bare {
			if strings.ContainsRune(r.short, c) {
				return "-" + string(c)
			}
		}
	}
	return ""
}

// gitGlobal returns the reason a global git option (before the
// subcommand) reaches beyond git: configuration given on the command line
// can name programs to run (core.fsmonitor, core.pager, alias.x=!cmd),
// and another repository or exec path brings its own.
func gitGlobal(v string, next []word) (reason string, used int) {
	name, _, glued := strings.Cut(v, "=")
	switch {
	case strings.HasPrefix(v, "-c"):
		return "git -c sets configuration that can run programs", 0
	case name == "--config-env" || name == "--git-dir" || name == "--work-tree" ||
		(name == "--exec-path" && glued):
		return "git " + name + " can make git run other programs", 0
	case v == "-C":
		if len(next) == 0 || !insideDir(next[0]) {
			return "git -C outside the working folder", 0
		}
		return "", 1
	case v == "--namespace" || v == "--super-prefix":
		return "", 1
	}
	return "", 0
}

// insideDir reports whether w is a literal relative path that stays
// below the working folder.
func insideDir(w word) bool {
	if !w.named() || strings.HasPrefix(w.val, "/") || strings.HasPrefix(w.val, "~") {
		return false
	}
	return !slices.Contains(strings.Split(w.val, "/"), "..")
}

// gitBeyond checks git's global options, then its subcommand's.
func gitBeyond(args []word) string {
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case !w.lit:
			return runTime
		case !strings.HasPrefix(w.val, "-"):
			return gitSubcommand(w.val, args[i+1:])
		}
		reason, used := gitGlobal(w.val, args[i+1:])
		if reason != "" {
			return reason
		}
		i += used
	}
	return ""
}

// gitSubcommand checks the options of one git subcommand.
func gitSubcommand(sub string, args []word) string {
	var r reach
	switch sub {
	case "diff", "log", "show", "range-diff", "diff-tree", "diff-files", "diff-index", "whatchanged":
		r = reach{long: []string{"output"}}
	case "format-patch":
		r = reach{short: "o", long: []string{"output-directory", "output"}}
	case "fetch", "pull", "clone", "ls-remote":
		r = reach{short: "uc", long: []string{"upload-pack", "config", "template", "exec"}}
	case "push", "send-pack":
		r = reach{long: []string{"receive-pack", "exec"}}
	case "archive":
		r = reach{short: "o", long: []string{"output", "exec", "remote"}}
	case "rebase":
		r = reach{short: "x", long: []string{"exec"}}
	case "difftool", "mergetool":
		r = reach{short: "x", long: []string{"extcmd"}}
	case "grep":
		r = reach{short: "O", long: []string{"open-files-in-pager"}}
	case "config":
		if !readOnlyConfig(args) {
			return "git config changes configuration, which can name programs to run"
		}
	case "filter-branch", "filter-repo":
		return "git " + sub + " runs the filters it is given"
	case "bisect", "submodule":
		if len(args) > 0 && (args[0].val == "run" || args[0].val == "foreach") {
			return "git " + sub + " " + args[0].val + " runs the command it is given"
		}
	}
	if got := r.find("git "+sub, args); got != "" {
		return got
	}
	return ""
}

// readOnlyConfig reports whether git config's arguments only read.
func readOnlyConfig(args []word) bool {
	var operands []string
	get := false
	for _, w := range args {
		switch v := w.val; {
		case !w.lit:
			return false
		case slices.Contains([]string{"--add", "--unset", "--unset-all", "--replace-all", "--edit", "-e",
			"--rename-section", "--remove-section"}, v):
			return false
		case slices.Contains([]string{"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l"}, v):
			get = true
		case !strings.HasPrefix(v, "-"):
			operands = append(operands, v)
		}
	}
	switch {
	case get:
		return true
	case len(operands) > 0 && (operands[0] == "get" || operands[0] == "list"):
		return true
	case len(operands) == 1:
		return !slices.Contains([]string{"set", "unset", "edit", "rename-section", "remove-section"}, operands[0])
	}
	return false
}

// sshBeyond flags ssh options that run local programs: -o ...Command=,
// -F (a config file can set them) and scp/sftp -S (the ssh program).
func sshBeyond(name string, args []word) string {
	for i, w := range args {
		v := w.val
		switch {
		case !w.lit:
			return runTime
		case strings.HasPrefix(v, "-F"), name != "ssh" && strings.HasPrefix(v, "-S"):
			return name + " " + v[:2]
		case strings.HasPrefix(v, "-o"):
			opt := strings.TrimPrefix(v, "-o")
			if opt == "" && i+1 < len(args) {
				opt = args[i+1].val
			}
			if strings.Contains(strings.ToLower(opt), "command") {
				return name + " -o " + opt
			}
		}
	}
	return ""
}
