package shell

import (
	"reflect"
	"slices"
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
		{"in assignment", "x=$(rm -rf /)", cmds(c("rm", "-rf", "/")), nil},
		{"in prefix assignment", "x=$(rm -rf /) ls", cmds(c("ls"), c("rm", "-rf", "/")), nil},
		{"in parameter default", "echo ${X:-$(rm x)}", cmds(c("echo", "${X:-$(rm x)}"), c("rm", "x")), nil},
		{"in arithmetic", "echo $(( $(rm x) + 1 ))", cmds(c("echo", "$(($(rm x) + 1))"), d("$(( $(rm x) + 1 ))"), c("rm", "x")), nil},
		{"process substitution in", "diff <(ls a) <(rm b)", cmds(c("diff", "<(ls a)", "<(rm b)"), c("ls", "a"), c("rm", "b")), nil},
		{"process substitution out", "ls > >(rm x)", cmds(c("ls"), c("rm", "x")), nil},
		{"in redirect target", "ls > $(rm x)", cmds(c("ls"), c("rm", "x")), files("")},
		{"in export", "export x=$(rm x)", cmds(c("export", "x=$(rm x)"), c("rm", "x")), nil},
		{"in heredoc", "cat <<EOF\n$(rm x)\nEOF", cmds(c("cat"), c("rm", "x")), nil},
		{"quoted heredoc is text", "cat <<'EOF'\n$(rm x)\nEOF", cmds(c("cat")), nil},
		{"in array index", "echo ${a[$(rm x)]}", cmds(c("echo", "${a[$(rm x)]}"), d("${a[$(rm x)]}"), c("rm", "x")), nil},
		{"in let", `let "y = $(rm x)"`, cmds(d(`let "y = $(rm x)"`), c("rm", "x")), nil},
		{"in arithmetic command", "(( y = $(rm x) ))", cmds(d("(( y = $(rm x) ))"), c("rm", "x")), nil},
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
		{"env", "env LANG=C rm x", cmds(c("rm", "x")), nil},
		{"env -i and unset", "env -i -u HOME LC_ALL=C TZ=UTC rm x", cmds(c("rm", "x")), nil},
		{"env split string", "env -S 'rm -rf /'", cmds(d("env", "-S", "rm -rf /")), nil},
		{"env alone", "env", cmds(c("env")), nil},
		{"prefix assignment", "CI=1 x=2 rm x", cmds(c("rm", "x")), nil},
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
		{"chain of wrappers", "nohup env NO_COLOR=1 timeout 3 nice rm x", cmds(c("rm", "x")), nil},
		{"wrapper by path", "/usr/bin/env rm x", cmds(c("rm", "x")), nil},
		{"local program named env", "./env rm x", cmds(c("./env", "rm", "x")), nil},
		{"sudo", "sudo rm -rf /", cmds(c("sudo", "rm", "-rf", "/"), c("rm", "-rf", "/")), nil},
		{"sudo options", "sudo -u root -E env TERM=dumb rm x", cmds(c("sudo", "-u", "root", "-E", "env", "TERM=dumb", "rm", "x"), c("rm", "x")), nil},
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
		{"long options", "env --unset=HOME --chdir /tmp timeout --foreground --signal=KILL 5 xargs --replace=@ --max-args 2 rm @", cmds(c("cd", "/tmp"), c("rm", "@")), nil},
		{"long option missing value", "timeout --signal", cmds(d("timeout", "--signal")), nil},
		{"unknown long option", "nice --frobnicate rm", cmds(d("nice", "--frobnicate", "rm")), nil},
		{"option value not literal", "nice -n $N rm", cmds(d("nice", "-n", "$N", "rm")), nil},
		{"bash --rcfile", "bash --norc --rcfile x -c 'rm y'", cmds(c("bash", "--norc", "--rcfile", "x", "-c", "rm y"), c("rm", "y")), nil},
		{"bash -s reads stdin", "bash -s arg <<< 'rm z'", cmds(c("rm", "z")), nil},
		{"bash unquoted heredoc", "bash <<EOF\nrm \\$x\nEOF", cmds(c("rm", "$x")), nil},
		{"bash heredoc with expansion", "bash <<EOF\nrm $x\nEOF", cmds(d("bash")), nil},
		{"trap list", "trap -p", cmds(c("trap", "-p")), nil},
		{"trap reset", "trap - EXIT", cmds(c("trap", "-", "EXIT")), nil},
		{"trap dynamic", `trap "$h" EXIT`, cmds(d("trap", `"$h"`, "EXIT")), nil},
		{"alias dynamic", `alias x="$y"`, cmds(d("alias", `x="$y"`)), nil},
		{"alias unparseable", "alias x='if'", cmds(d("alias", "x=if")), nil},
		{"brace to nothing", "{,} ls", cmds(c("ls")), nil},
		{"busybox applet", "busybox rm x", cmds(c("rm", "x")), nil},
		{"busybox by path", "/bin/busybox sh -c 'rm x'", cmds(c("rm", "x")), nil},
		{"busybox list", "busybox --list", cmds(d("busybox", "--list")), nil},
		{"doas", "doas -u root rm x", cmds(c("doas", "-u", "root", "rm", "x"), c("rm", "x")), nil},
		{"doas -s", "doas -s", cmds(d("doas", "-s")), nil},
		{"ionice", "ionice -c 3 rm x", cmds(c("rm", "x")), nil},
		{"ionice -p", "ionice -p 12", cmds(d("ionice", "-p", "12")), nil},
		{"taskset", "taskset -c 0 rm x", cmds(c("rm", "x")), nil},
		{"flock command", "flock -w 5 /tmp/l rm x", cmds(c("rm", "x")), nil},
		{"flock -c", "flock /tmp/l -c 'rm x'", cmds(c("rm", "x")), nil},
		{"flock fd", "flock 9", cmds(c("flock", "9")), nil},
		{"watch script", "watch -n 1 rm x", cmds(c("rm", "x")), nil},
		{"watch exec", "watch -x rm x", cmds(c("rm", "x")), nil},
		{"watch dynamic", `watch "$c"`, cmds(d("watch", `"$c"`)), nil},
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
		{"shell variable", "n=3; ls", cmds(c("ls")), nil},
		{"lower-case proxy", "https_proxy=http://x curl y", cmds(d("curl", "y")), nil},
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
			for i := range got.Commands {
				got.Commands[i].Beyond, got.Commands[i].Fixed = "", 0 // TestAnalyzeBeyond and TestAnalyzeInterpreters check them
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

// TestAnalyzeEvaluates lists lines in which a variable's value reaches a
// place where bash evaluates it as code (x='a[$(touch P)]' makes each run
// touch): each must hold a Dynamic command. The safe lines beside them
// must not.
func TestAnalyzeEvaluates(t *testing.T) {
	const x = `x='a[$(touch P)]'; `
	evaluating := []string{
		x + "ls $((x))", x + "ls $(( x + 1 ))", x + "ls $[x]", x + `ls "$((x))"`, x + "ls ${x@P}",
		x + "y=$x; ls ${!y}", x + "ls ${!x}", x + "[[ $x -eq 0 ]]", x + "[[ x -lt 1 ]]", x + "[[ 1 -ne $x ]]",
		x + "[[ 0 -le x ]] && ls", x + "[[ 0 -ge x || 1 -gt 0 ]]", x + "(( x ))", x + "((x)) && ls",
		x + "a=(1); ls ${a[x]}", x + "ls ${a[$x]}", x + "ls ${x:x}", x + "ls ${x:0:x}", x + "case 1 in $((x))) ls;; esac",
		x + "let y=x", x + `let "y = x"`, x + "builtin let y=x", x + "for ((i=x; i<1; i++)); do ls; done",
		x + "declare -i y=$x", x + "typeset -i y; y=$x", x + "local -i y=$x", x + "declare -ai y",
		x + "z[x]=1", x + "w=([x]=1)", x + "declare -a w=([x]=1)", x + `declare "a[$x]=1"`,
		x + `printf -v "$x" 1`, x + "printf -v 'a[$x]' 1", x + `read "$x" <<< 1`, x + "read 'a[$x]' <<< 1",
		x + `test -v "$x"`, x + `[ -v "$x" ]`, x + "[ $x ]", x + `[ "$v" "$x" ]`, x + "printf -va[$x] 1",
		x + `printf "$v" 1`, x + "wait -p 'a[$x]'", x + `[[ -v $x ]]`, x + "[[ -v a[x] ]]", x + `[[ -R $x ]]`,
		x + `unset "$x"`, x + "unset 'a[$x]'", x + `wait -p "$x"`, x + `mapfile "$x" < f`,
		x + "mapfile -C 'touch P' -c 1 a < f", x + "readarray -t -C cb a < f", x + `getopts a "$x"`,
		x + `declare -n r="$x"; ls $r`, x + "declare -n r; r=$x; ls $r", x + "declare -n r='a[$(touch P)]'",
		x + "echo $(( $(cat f) ))", x + `bash -c 'ls $((x))'`, x + "ls > $((x))", x + "ls ${y:-$((x))}",
		"hash -p /tmp/evil ls; ls", "enable -f /tmp/evil.so ls", x + "[[ $x -eq 0 ]] <<< $((x))",
		x + "ls $(( ++x ))", x + "ls $(( y = x ))",
	}
	safe := []string{
		"ls $((1 + 2))", "ls $(( 0x1f * 2#101 ))", "ls $[3]", "ls ${a[0]} ${a[@]} ${!a[@]} ${!pre*}", "ls ${x: -1:2}",
		"[[ 3 -eq 3 ]] && ls", "[[ -v HOME ]]", "test -v HOME", `[ "$x" -eq 0 ]`, `test "$x" = y`, "wait $!", `[ -n "$x" ]`,
		"printf %d $x", "printf -v out %s x", "read -r line < f", "(( 1 ))", "for ((; 0; )); do ls; done", "ls ${!x@}",
		"ls ${x@Q} ${x@E} ${#x}", "declare -n r=LANG", "echo $(( $# - 1 ))", "ls ${x/a/b}",
	}
	for _, line := range evaluating {
		if got := Analyze(line); got.Parsed && !hasDynamic(got) {
			t.Errorf("Analyze(%q) = %s: a value is evaluated as code, want a Dynamic command", line, show(got.Commands))
		}
	}
	for _, line := range safe {
		if got := Analyze(line); !got.Parsed || hasDynamic(got) {
			t.Errorf("Analyze(%q) = %s, want no Dynamic command", line, show(got.Commands))
		}
	}
}

func hasDynamic(a Analysis) bool {
	for _, c := range a.Commands {
		if c.Dynamic {
			return true
		}
	}
	return false
}

// TestAnalyzeChdir checks that relative write targets are unknown ("")
// once the line changes directory, wherever the change sits.
func TestAnalyzeChdir(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"ls > out", files("out")},
		{"cd /outside && ls > PWNED", files("")},
		{"cd /outside; ls > /abs/f", files("/abs/f")},
		{"(cd /outside; ls > PWNED)", files("")},
		{"cd /outside && (ls > PWNED)", files("")},
		{"pushd /outside; ls >> PWNED", files("")},
		{"popd; ls &> PWNED", files("")},
		{"for i in 1 2; do ls > PWNED; cd /outside; done", files("")},
		{"f() { ls > PWNED; }; cd /outside; f", files("")},
		{"builtin cd /outside; ls > PWNED", files("")},
		{"command cd /outside; ls > PWNED", files("")},
		{"bash -c 'cd /outside' && ls > PWNED", files("")},
		{"cd /outside; find . -fprint PWNED", files("")},
		{"env -C /outside find . -fprint PWNED", files("")},
		{"sudo -D /outside find . -fprint PWNED", files("")},
		{"cd /outside; ls > ~/x", files("")},
	}
	for _, tt := range tests {
		got := Analyze(tt.line)
		if !reflect.DeepEqual(got.Redirects, tt.want) {
			t.Errorf("Analyze(%q).Redirects = %q, want %q", tt.line, got.Redirects, tt.want)
		}
	}
}

// TestAnalyzeUnlistedVariable: a variable no list names, set for a
// command (prefix, env, sudo) or for the commands after it (assignment,
// export, declare), leaves those commands to be asked about: Beyond says
// which variable. Harmless and lower-case names change nothing.
func TestAnalyzeUnlistedVariable(t *testing.T) {
	b := func(beyond string, words ...string) Command { return Command{Words: words, Beyond: beyond} }
	tests := []struct {
		line string
		want []Command
	}{
		{"GOCACHEPROG=./evil go vet", cmds(b("with GOCACHEPROG set", "go", "vet"))},
		{"env LUA_INIT=@evil.lua lua x.lua", cmds(b("with LUA_INIT set", "lua", "x.lua"))},
		{"sudo PHPRC=. php x.php", cmds(b("with PHPRC set", "sudo", "PHPRC=.", "php", "x.php"), b("with PHPRC set", "php", "x.php"))},
		{"X=1 bash -c 'ls; pwd'", cmds(b("with X set", "ls"), b("with X set", "pwd"))},
		{"export PHPRC=.; php x.php", cmds(c("export", "PHPRC=."), b("with PHPRC set", "php", "x.php"))},
		{"JAVA_HOME=/tmp/j; mvn test && ls", cmds(b("with JAVA_HOME set", "mvn", "test"), b("with JAVA_HOME set", "ls"))},
		{"ls; declare -x GLIBC_TUNABLES=x; ls", cmds(c("ls"), c("declare", "-x", "GLIBC_TUNABLES=x"), b("with GLIBC_TUNABLES set", "ls"))},
		{"git diff; FOO=1 ls; git status", cmds(c("git", "diff"), b("with FOO set", "ls"), c("git", "status"))},
		{"read -r JAVA_HOME < f; mvn test", cmds(c("read", "-r", "JAVA_HOME"), b("with JAVA_HOME set", "mvn", "test"))},
		{"printf -v PHPRC %s .; php x", cmds(c("printf", "-v", "PHPRC", "%s", "."), b("with PHPRC set", "php", "x"))},
		{"printf -vPHPRC .; php x", cmds(c("printf", "-vPHPRC", "."), b("with PHPRC set", "php", "x"))},
		{"for GOFLAGZ in a; do go vet; done", cmds(b("with GOFLAGZ set", "go", "vet"))},
		{"read -r line < f; printf '%s' X; mapfile -t - < f; ls", cmds(c("read", "-r", "line"), c("printf", "%s", "X"), c("mapfile", "-t", "-"), c("ls"))},
		{"read -p PROMPT -r line; printf %s -vX; ls", cmds(c("read", "-p", "PROMPT", "-r", "line"), c("printf", "%s", "-vX"), c("ls"))},
		{"read -a ARR; ls", cmds(c("read", "-a", "ARR"), b("with ARR set", "ls"))},
		{"getopts ab: OPT; ls", cmds(c("getopts", "ab:", "OPT"), b("with OPT set", "ls"))},
		{"wait -p PID; ls", cmds(c("wait", "-p", "PID"), b("with PID set", "ls"))},
		{"CARGO_TERM_COLOR=always cargo test", cmds(c("cargo", "test"))},
		{"LANG=C TZ=UTC CI=1 GOOS=js ls", cmds(c("ls"))},
		{"n=3 f=x ls; count=0; ls", cmds(c("ls"), c("ls"))},
		{"FOO=1 git -c x=y status", cmds(b("git -c sets configuration that can run programs", "git", "-c", "x=y", "status"))},
	}
	for _, tt := range tests {
		got := Analyze(tt.line)
		if !got.Parsed || !slices.EqualFunc(got.Commands, tt.want, func(x, y Command) bool {
			return slices.Equal(x.Words, y.Words) && x.Dynamic == y.Dynamic && x.Beyond == y.Beyond
		}) {
			t.Errorf("Analyze(%q).Commands =\n  %+v\nwant\n  %+v", tt.line, got.Commands, tt.want)
		}
	}
}

// TestAnalyzeBeyond lists commands whose options run other programs or
// write files: Beyond must name the reason, so no allow rule covers them.
// The plain lines beside them must not be marked.
func TestAnalyzeBeyond(t *testing.T) {
	reaching := []string{
		"git -c core.fsmonitor='touch P' status", "git -c alias.x='!touch P' x", "git -ccore.pager=x log",
		"git --config-env=core.pager=EVIL log", "git --exec-path=/tmp/evil status", "git --git-dir=/o/.git log",
		"git --work-tree=/o status", "git -C /outside status", "git -C ../x status", "git diff --output=/outside/f",
		"git log --out=/outside/f", "git format-patch -o /outside HEAD~1", "git fetch --upload-pack='touch P' origin",
		"git clone -u 'touch P' url", "git push --receive-pack=x", "git rebase -x 'touch P' HEAD~2",
		"git rebase --exec='touch P' HEAD~2", "git bisect run touch P", "git submodule foreach touch P",
		"git difftool -x 'touch P'", "git grep -O'touch P' x", "git config core.pager 'touch P'",
		"git config --add core.hooksPath /tmp", "git filter-branch --tree-filter 'touch P'", "git archive -o /o/x HEAD",
		"git $OPT status", "find . -delete", "find . -exec rm {} +", "find . -execdir ls \\;", "find . -ok rm {} \\;",
		"find . -fprint out", "find . -fls out", "sed -i s/a/b/ f", "sed -ni s/a/b/ f", "sed --in-place s/a/b/ f",
		"sed -f script.sed f", "sed 's/a/b/e' f", "sed 's/a/b/w out' f", "sed -n 'w out' f", "sed 1e f",
		"sed -e p -e 'W out' f", "sed '/x/e touch P' f", "sed --expression='s|a|b|we' f", "sed -l 5 's/a/b/w x' f",
		"awk 'BEGIN{system(\"touch P\")}'", "awk '{print > \"/o/f\"}' f", "awk '{print | \"sh\"}' f",
		"awk -f prog.awk f", "gawk -l filefuncs 1 f", "tar --to-command='sh -c x' -xf a.tar",
		"tar -xf a.tar --checkpoint=1 --checkpoint-action=exec='touch P'", "tar -I 'touch P' -xf a.tar",
		"tar xIf 'touch P' a.tar", "tar -C /outside -xf a.tar", "tar --use-compress=x -cf a.tar .",
		"rsync -e 'touch P' a b:", "rsync --rsync-path='touch P' a b:", "less +'!touch P' f", "more +10 f",
		"man -P 'touch P' ls", "man --pager='touch P' ls", "vim -c '!touch P' f", "vim +'!touch P' f",
		"curl -o /outside/f url", "curl -sSLo f url", "curl --output f url", "curl -K cfg url", "wget -O f url",
		"wget --execute=x url", "sort -o /outside/f f", "sort --compress-program=x f", "rg --pre 'touch P' x",
		"fd -x touch", "go build -o /outside/x .", "go test -exec 'touch P' .", "go build -toolexec=x .",
		"cargo --config 'x' run", "npm --script-shell=/tmp/evil run x", "make CC='touch P'", "make -C /outside",
		"make --eval='x:'", "zip -T -TT 'touch P' a.zip f", "python3 -c 'import os'", "node -e 'x'",
		"perl -e 'x'", "perl -pi -e 's/a/b/' f", "ruby -e x", "php -r x", "ssh -o ProxyCommand='touch P' h",
		"ssh -oLocalCommand=x h", "ssh -F cfg h", "scp -S evil a h:b", "/usr/bin/git -c x=y status",
	}
	plain := []string{
		"git status", "git diff HEAD", "git log --oneline -5", "git -C sub status", "git commit -c HEAD",
		"git config user.name", "git config --get core.pager", "git config --list", "git show --stat",
		"find . -name '*.go' -print", "sed -n 1,5p f", "sed 's/hello/world/g' f", "sed -e 's/a/b/' -e 'y/ab/cd/' f",
		"sed '/x/d; $!N; s/\\n/ /' f", "sed -E 's#a#b#2' f", "awk '{print $1}' f", "awk -F: -v x=1 '{print $x}' f",
		"tar -czf a.tar.gz src", "tar xzf a.tar.gz", "rsync -av a b", "less f", "man ls", "vim f",
		"curl -fsSL url", "wget url", "sort -u f", "rg x", "fd x", "go test ./...", "go build .", "cargo build",
		"npm run build", "make test", "make -j4", "python3 script.py", "node app.js", "perl script.pl",
		"ssh -o StrictHostKeyChecking=no h", "zip -r a.zip src",
	}
	for _, line := range reaching {
		if got := Analyze(line); !got.Parsed || !anyBeyond(got) {
			t.Errorf("Analyze(%q): no command marked Beyond: %+v", line, got.Commands)
		}
	}
	for _, line := range plain {
		if got := Analyze(line); !got.Parsed || anyBeyond(got) {
			t.Errorf("Analyze(%q) marked Beyond: %+v", line, got.Commands)
		}
	}
}

func anyBeyond(a Analysis) bool {
	for _, c := range a.Commands {
		if c.Beyond != "" {
			return true
		}
	}
	return false
}
