package shell

import (
	"reflect"
	"strings"
	"testing"
)

// c is a literal command; d a Dynamic one.
func c(words ...string) Command { return Command{Words: words} }
func d(words ...string) Command { return Command{Words: words, Dynamic: true} }

// cmds and files keep the table short.
func cmds(cs ...Command) []Command { return cs }
func files(fs ...string) []string  { return fs }

// TestAnalyze is the adversarial table: every command that would run must
// be reported, with nothing hidden by syntax, quoting or wrappers.
func TestAnalyze(t *testing.T) {
	tests := []struct {
		name, line string
		want       []Command
		redirects  []string
	}{
		// Lists and pipelines.
		{"simple", "ls -la", cmds(c("ls", "-la")), nil},
		{"semicolon", "ls; rm -rf /", cmds(c("ls"), c("rm", "-rf", "/")), nil},
		{"and", "make && rm x", cmds(c("make"), c("rm", "x")), nil},
		{"or", "test -f x || rm y", cmds(c("test", "-f", "x"), c("rm", "y")), nil},
		{"pipe", "cat f | sh", cmds(c("cat", "f"), d("sh")), nil},
		{"pipe stderr", "make |& tee log", cmds(c("make"), c("tee", "log")), nil},
		{"background", "sleep 1 & rm x", cmds(c("sleep", "1"), c("rm", "x")), nil},
		{"newline", "ls\nrm -rf /\n", cmds(c("ls"), c("rm", "-rf", "/")), nil},
		{"negated", "! rm x", cmds(c("rm", "x")), nil},
		{"comment hides nothing", "ls # ; rm -rf /", cmds(c("ls")), nil},
		// Substitutions.
		{"command substitution", "echo $(rm -rf /)", cmds(c("echo", "$(rm -rf /)"), c("rm", "-rf", "/")), nil},
		{"backticks", "echo `rm x`", cmds(c("echo", "$(rm x)"), c("rm", "x")), nil},
		{"in double quotes", `echo "a $(rm x) b"`, cmds(c("echo", `"a $(rm x) b"`), c("rm", "x")), nil},
		{"nested", "echo $(cat $(rm x))", cmds(c("echo", "$(cat $(rm x))"), c("cat", "$(rm x)"), c("rm", "x")), nil},
		{"in assignment", "X=$(rm -rf /)", cmds(c("rm", "-rf", "/")), nil},
		{"in prefix assignment", "X=$(rm -rf /) ls", cmds(c("ls"), c("rm", "-rf", "/")), nil},
		{"in parameter default", "echo ${X:-$(rm x)}", cmds(c("echo", "${X:-$(rm x)}"), c("rm", "x")), nil},
		{"in arithmetic", "echo $(( $(rm x) + 1 ))", cmds(c("echo", "$(($(rm x) + 1))"), c("rm", "x")), nil},
		{"process substitution in", "diff <(ls a) <(rm b)", cmds(c("diff", "<(ls a)", "<(rm b)"), c("ls", "a"), c("rm", "b")), nil},
		{"process substitution out", "ls > >(rm x)", cmds(c("ls"), c("rm", "x")), nil},
		{"in redirect target", "ls > $(rm x)", cmds(c("ls"), c("rm", "x")), files("")},
		{"in export", "export X=$(rm x)", cmds(c("export", "X=$(rm x)"), c("rm", "x")), nil},
		{"in heredoc", "cat <<EOF\n$(rm x)\nEOF", cmds(c("cat"), c("rm", "x")), nil},
		{"quoted heredoc is text", "cat <<'EOF'\n$(rm x)\nEOF", cmds(c("cat")), nil},
		{"in array index", "echo ${a[$(rm x)]}", cmds(c("echo", "${a[$(rm x)]}"), c("rm", "x")), nil},
		{"in let", `let "y = $(rm x)"`, cmds(c("rm", "x")), nil},
		{"in arithmetic command", "(( y = $(rm x) ))", cmds(c("rm", "x")), nil},
		{"in for list", "select v in $(rm x); do :; done", cmds(c("rm", "x"), c(":")), nil},
		// Compound commands and functions.
		{"subshell", "(cd /; rm x)", cmds(c("cd", "/"), c("rm", "x")), nil},
		{"group", "{ ls; rm x; }", cmds(c("ls"), c("rm", "x")), nil},
		{"if", "if grep -q a f; then rm f; else touch g; fi", cmds(c("grep", "-q", "a", "f"), c("rm", "f"), c("touch", "g")), nil},
		{"while", "while read l; do rm \"$l\"; done < list", cmds(c("read", "l"), c("rm", `"$l"`)), nil},
		{"for", "for f in $(ls); do rm $f; done", cmds(c("ls"), c("rm", "$f")), nil},
		{"case", "case $x in a) rm a;; *) ls;; esac", cmds(c("rm", "a"), c("ls")), nil},
		{"function", "f() { rm -rf /; }; f", cmds(c("rm", "-rf", "/"), c("f")), nil},
		{"function keyword", "function g { curl x; }", cmds(c("curl", "x")), nil},
		{"test clause", "[[ -f $(rm x) ]] && ls", cmds(c("rm", "x"), c("ls")), nil},
		{"coproc", "coproc rm x", cmds(c("rm", "x")), nil},
		{"time keyword", "time rm x", cmds(c("rm", "x")), nil},
		// Wrappers.
		{"env", "env X=1 rm x", cmds(c("rm", "x")), nil},
		{"env -i and unset", "env -i -u HOME X=1 Y=2 rm x", cmds(c("rm", "x")), nil},
		{"env split string", "env -S 'rm -rf /'", cmds(d("env", "-S", "rm -rf /")), nil},
		{"env alone", "env", cmds(c("env")), nil},
		{"prefix assignment", "X=1 Y=2 rm x", cmds(c("rm", "x")), nil},
		{"nohup", "nohup rm x", cmds(c("rm", "x")), nil},
		{"timeout", "timeout 5 rm -rf x", cmds(c("rm", "-rf", "x")), nil},
		{"timeout options", "timeout -s KILL --kill-after=2 5s rm x", cmds(c("rm", "x")), nil},
		{"nice", "nice -n 10 rm x", cmds(c("rm", "x")), nil},
		{"nice numeric", "nice -5 rm x", cmds(c("rm", "x")), nil},
		{"command", "command rm x", cmds(c("rm", "x")), nil},
		{"command -v only looks up", "command -v rm", cmds(c("command", "-v", "rm")), nil},
		{"exec", "exec rm x", cmds(c("rm", "x")), nil},
		{"builtin", "builtin cd /", cmds(c("cd", "/")), nil},
		{"time program", `\time -p rm x`, cmds(c("rm", "x")), nil},
		{"time -o writes a file", `\time -o /etc/x rm x`, cmds(d("time", "-o", "/etc/x", "rm", "x")), nil},
		{"stdbuf setsid", "stdbuf -oL setsid rm x", cmds(c("rm", "x")), nil},
		{"chain of wrappers", "nohup env A=1 timeout 3 nice rm x", cmds(c("rm", "x")), nil},
		{"wrapper by path", "/usr/bin/env rm x", cmds(c("rm", "x")), nil},
		{"local program named env", "./env rm x", cmds(c("./env", "rm", "x")), nil},
		{"sudo", "sudo rm -rf /", cmds(c("sudo", "rm", "-rf", "/"), c("rm", "-rf", "/")), nil},
		{"sudo options", "sudo -u root -E env X=1 rm x", cmds(c("sudo", "-u", "root", "-E", "env", "X=1", "rm", "x"), c("rm", "x")), nil},
		{"sudo -s reads stdin", "sudo -s", cmds(d("sudo", "-s")), nil},
		{"sudo unknown option", "sudo -Z rm", cmds(d("sudo", "-Z", "rm")), nil},
		{"xargs", "find . -name '*.o' | xargs rm", cmds(c("find", ".", "-name", "*.o"), c("rm")), nil},
		{"xargs options", "xargs -0 -n 1 -P4 rm -f", cmds(c("rm", "-f")), nil},
		{"xargs default echo", "xargs", cmds(c("echo")), nil},
		{"xargs replace", "xargs -I{} sh -c 'echo {}'", cmds(d("sh", "-c", "echo {}")), nil},
		{"xargs sh -c script from stdin", "xargs sh -c", cmds(d("sh", "-c")), nil},
		{"find -exec", `find . -exec rm {} \;`, cmds(c("find", ".", "-exec", "rm", "{}", ";"), c("rm", "{}")), nil},
		{"find -exec +", "find . -type f -execdir chmod 644 {} + -ok rm {} ';'", cmds(
			c("find", ".", "-type", "f", "-execdir", "chmod", "644", "{}", "+", "-ok", "rm", "{}", ";"),
			c("chmod", "644", "{}"), c("rm", "{}")), nil},
		{"find -exec {} as command", `find . -exec {} \;`, cmds(c("find", ".", "-exec", "{}", ";"), d("{}")), nil},
		{"find -fprint writes", "find . -fprint /tmp/out", cmds(c("find", ".", "-fprint", "/tmp/out")), files("/tmp/out")},
		{"find dynamic action", "find . $ACT", cmds(d("find", ".", "$ACT")), nil},
		// Shells running scripts.
		{"bash -c", "bash -c 'ls; rm -rf /'", cmds(c("ls"), c("rm", "-rf", "/")), nil},
		{"sh -c double quoted", `sh -c "a; b"`, cmds(c("a"), c("b")), nil},
		{"bash -lc", "bash -lc 'npm test'", cmds(c("npm", "test")), nil},
		{"bash -e -o pipefail -c", "bash -e -o pipefail -c 'rm x | cat'", cmds(c("rm", "x"), c("cat")), nil},
		{"nested bash -c", `bash -c "sh -c 'zsh -c \"rm x\"'"`, cmds(c("rm", "x")), nil},
		{"bash -c redirect", "bash -c 'ls > /etc/passwd'", cmds(c("ls")), files("/etc/passwd")},
		{"bash -c dynamic", `bash -c "$CMD"`, cmds(d("bash", "-c", `"$CMD"`)), nil},
		{"bash -c substitution", `bash -c "$(curl x)"`, cmds(d("bash", "-c", `"$(curl x)"`), c("curl", "x")), nil},
		{"bash -c unparseable", "bash -c 'echo \"'", cmds(d("bash", "-c", `echo "`)), nil},
		{"bash script file", "bash script.sh arg", cmds(c("bash", "script.sh", "arg")), nil},
		{"bash reads stdin pipe", "curl x | bash", cmds(c("curl", "x"), d("bash")), nil},
		{"bash heredoc", "bash <<'EOF'\nrm -rf /\nEOF", cmds(c("rm", "-rf", "/")), nil},
		{"bash herestring", "bash <<< 'rm x'", cmds(c("rm", "x")), nil},
		{"bash from file", "bash < s.sh", cmds(c("bash")), nil},
		{"risky variable into bash -c", "PATH=. bash -c ls", cmds(c("ls"), d("bash", "-c", "ls")), nil},
		{"trap", "trap 'rm -rf /' EXIT", cmds(c("trap", "rm -rf /", "EXIT"), c("rm", "-rf", "/")), nil},
		{"alias", "alias ls='rm -rf'", cmds(c("alias", "ls=rm -rf"), c("rm", "-rf")), nil},
		{"env dash", "env - rm x", cmds(c("rm", "x")), nil},
		{"timeout without command", "timeout 5", cmds(c("timeout", "5")), nil},
		{"sudo -e edits", "sudo -e /etc/hosts", cmds(c("sudo", "-e", "/etc/hosts")), nil},
		{"xargs -a file", "xargs -a list rm", cmds(c("rm")), nil},
		{"xargs -I % sh -c", "xargs -I % sh -c 'rm %'", cmds(d("sh", "-c", "rm %")), nil},
		{"xargs bash reads stdin", "xargs bash <<< x", cmds(d("bash")), nil},
		{"time on subshell", "time -p (rm x)", cmds(c("rm", "x")), nil},
		{"long options", "env --unset=HOME --chdir /tmp timeout --foreground --signal=KILL 5 xargs --replace=@ --max-args 2 rm @", cmds(c("rm", "@")), nil},
		{"long option missing value", "timeout --signal", cmds(d("timeout", "--signal")), nil},
		{"unknown long option", "nice --frobnicate rm", cmds(d("nice", "--frobnicate", "rm")), nil},
		{"option value not literal", "nice -n $N rm", cmds(d("nice", "-n", "$N", "rm")), nil},
		{"bash --rcfile", "bash --norc --rcfile x -c 'rm y'", cmds(c("rm", "y")), nil},
		{"bash -s reads stdin", "bash -s arg <<< 'rm z'", cmds(c("rm", "z")), nil},
		{"bash unquoted heredoc", "bash <<EOF\nrm \\$x\nEOF", cmds(c("rm", "$x")), nil},
		{"bash heredoc with expansion", "bash <<EOF\nrm $x\nEOF", cmds(d("bash")), nil},
		{"trap list", "trap -p", cmds(c("trap", "-p")), nil},
		{"trap reset", "trap - EXIT", cmds(c("trap", "-", "EXIT")), nil},
		{"trap dynamic", `trap "$h" EXIT`, cmds(d("trap", `"$h"`, "EXIT")), nil},
		{"alias dynamic", `alias x="$y"`, cmds(d("alias", `x="$y"`)), nil},
		{"alias unparseable", "alias x='if'", cmds(d("alias", "x=if")), nil},
		{"brace to nothing", "{,} ls", cmds(c("ls")), nil},
		// Code as data.
		{"variable holding name", "a=rm; $a -rf /", cmds(d("$a", "-rf", "/")), nil},
		{"braced variable", `"${CMD}" x`, cmds(d(`"${CMD}"`, "x")), nil},
		{"extglob name", "@(rm) x", cmds(d("@(rm)", "x")), nil},
		{"declare quoted risky", `declare "PATH=/tmp"`, cmds(d("declare", `"PATH=/tmp"`)), nil},
		{"declare dynamic", `declare "$v"`, cmds(d("declare", `"$v"`)), nil},
		{"eval", "eval 'rm x'", cmds(d("eval", "rm x")), nil},
		{"source", "source ./env.sh", cmds(d("source", "./env.sh")), nil},
		{"dot", ". ./env.sh", cmds(d(".", "./env.sh")), nil},
		{"variable command", "$CMD -rf /", cmds(d("$CMD", "-rf", "/")), nil},
		{"substituted name", `"$(echo rm)" -rf /`, cmds(d(`"$(echo rm)"`, "-rf", "/"), c("echo", "rm")), nil},
		{"glob name", "/bin/r? -rf x", cmds(d("/bin/r?", "-rf", "x")), nil},
		{"risky prefix variable", "LD_PRELOAD=/tmp/x.so ls", cmds(d("ls")), nil},
		{"risky assignment", "PATH=/tmp; ls", cmds(d("PATH=/tmp"), c("ls")), nil},
		{"risky export", "export PATH=.:$PATH", cmds(d("export", "PATH=.:$PATH")), nil},
		{"risky env", "env GIT_SSH_COMMAND=x git fetch", cmds(d("git", "fetch")), nil},
		{"nameref to risky", "declare -n r=PATH; r=/tmp; ls", cmds(d("declare", "-n", "r=PATH"), c("ls")), nil},
		{"read into risky", "read PATH <<< /tmp; ls", cmds(d("read", "PATH"), c("ls")), nil},
		{"read harmless", "read -r line < f", cmds(c("read", "-r", "line")), nil},
		{"printf -v risky", "printf -v PATH %s /tmp", cmds(d("printf", "-v", "PATH", "%s", "/tmp")), nil},
		{"printf harmless", `printf '%s\n' "$x"`, cmds(c("printf", `%s\n`, `"$x"`)), nil},
		{"for over risky", "for PATH in /tmp; do ls; done", cmds(d("PATH"), c("ls")), nil},
		{"risky before exec", "PATH=/tmp exec", cmds(d("exec")), nil},
		{"harmless git variable", "GIT_AUTHOR_NAME=me git commit", cmds(c("git", "commit")), nil},
		// Quoting tricks.
		{"split quotes", "'r''m' -rf /", cmds(c("rm", "-rf", "/")), nil},
		{"backslash", `\rm -rf /`, cmds(c("rm", "-rf", "/")), nil},
		{"double quoted name", `"rm" x`, cmds(c("rm", "x")), nil},
		{"inner backslash", `r\m x`, cmds(c("rm", "x")), nil},
		{"ansi-c", `$'\x72\155' x`, cmds(c("rm", "x")), nil},
		{"brace expansion", "{rm,-rf,/}", cmds(c("rm", "-rf", "/")), nil},
		{"brace with empty", "{rm,} x", cmds(c("rm", "x")), nil},
		{"line continuation", "r\\\nm x", cmds(c("rm", "x")), nil},
		{"test bracket", "[ -f x ] && ls", cmds(c("[", "-f", "x", "]"), c("ls")), nil},
		// Redirections.
		{"write outside", "echo x > /etc/passwd", cmds(c("echo", "x")), files("/etc/passwd")},
		{"append home", "echo x >> ~/.bashrc", cmds(c("echo", "x")), files("~/.bashrc")},
		{"clobber and all", "ls >| a &> b &>> c", cmds(c("ls")), files("a", "b", "c")},
		{"read is no write", "wc -l < in", cmds(c("wc", "-l")), nil},
		{"read-write", "cat <> f", cmds(c("cat")), files("f")},
		{"fd dups", "make 2>&1 >&2 3>&-", cmds(c("make")), nil},
		{"dup to file", "make >& out", cmds(c("make")), files("out")},
		{"dev null", "make > /dev/null 2>/dev/stderr", cmds(c("make")), nil},
		{"quoted target", `echo > "a b"`, cmds(c("echo")), files("a b")},
		{"variable target", `echo > "$F"`, cmds(c("echo")), files("")},
		{"glob target", "echo > /etc/pass*", cmds(c("echo")), files("")},
		{"brace target", "echo > {/etc/passwd,}", cmds(c("echo")), files("")},
		{"exec redirect only", "exec 3> f", nil, files("f")},
		{"redirect in subshell", "(ls) > out; { ls; } 2> err", cmds(c("ls"), c("ls")), files("out", "err")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Analyze(tt.line)
			if !got.Parsed {
				t.Fatalf("Analyze(%q) did not parse", tt.line)
			}
			if !reflect.DeepEqual(got.Commands, tt.want) {
				t.Errorf("Analyze(%q).Commands =\n  %s\nwant\n  %s", tt.line, show(got.Commands), show(tt.want))
			}
			if !reflect.DeepEqual(got.Redirects, tt.redirects) {
				t.Errorf("Analyze(%q).Redirects = %q, want %q", tt.line, got.Redirects, tt.redirects)
			}
		})
	}
}

// show prints commands one per line, Dynamic ones marked.
func show(cs []Command) string {
	var lines []string
	for _, c := range cs {
		mark := ""
		if c.Dynamic {
			mark = " [dynamic]"
		}
		lines = append(lines, strings.Join(quoteAll(c.Words), " ")+mark)
	}
	return strings.Join(lines, "\n  ")
}

func quoteAll(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = "«" + w + "»"
	}
	return out
}

func TestUnquote(t *testing.T) {
	tests := []struct{ in, want string }{
		{`$'\x72\155\u00e9\U0001F600'`, "rm\u00e9\U0001F600"},
		{`$'a\tb\nc\\d\'e\"f\?g\a\b\e\E\f\r\v'`, "a\tb\nc\\d'e\"f?g\a\b\x1b\x1b\f\r\v"},
		{`$'\cA\q\x\0end'`, "\x01\\q\\x"},
		{`$'\xff\777'`, "\xff\xff"},
		{`"a\$b\c\"d"`, `a$b\c"d`},
		{`a\ b`, "a b"},
		{`'$HOME'`, "$HOME"},
		{`$"x"`, "x"},
	}
	for _, tt := range tests {
		got := Analyze("echo " + tt.in)
		if len(got.Commands) != 1 || len(got.Commands[0].Words) != 2 || got.Commands[0].Words[1] != tt.want {
			t.Errorf("echo %s: %s, want word %q", tt.in, show(got.Commands), tt.want)
		}
	}
}

func TestAnalyzeUnparseable(t *testing.T) {
	for _, line := range []string{`echo "unterminated`, "(((", "ls &&", "if true; then", "echo $(", "a | | b", "done"} {
		got := Analyze(line)
		if got.Parsed || got.Commands != nil || got.Redirects != nil || got.RootCommands != nil {
			t.Errorf("Analyze(%q) = %+v, want nothing parsed", line, got)
		}
	}
}

func TestAnalyzeRootCommands(t *testing.T) {
	got := Analyze("sudo git status && git diff | $PAGER; eval x; ls")
	want := []string{"sudo", "git", "eval", "ls"}
	if !reflect.DeepEqual(got.RootCommands, want) {
		t.Errorf("RootCommands = %q, want %q", got.RootCommands, want)
	}
}

func TestAnalyzeDepthBound(t *testing.T) {
	line := "rm x"
	for range maxDepth + 2 {
		line = "bash -c " + shellQuote(line)
	}
	got := Analyze(line)
	if !got.Parsed || len(got.Commands) != 1 || !got.Commands[0].Dynamic {
		t.Errorf("too deep nesting: got %s, want one Dynamic command", show(got.Commands))
	}
}

// shellQuote single-quotes s for the shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
