package shell

import (
	"reflect"
	"testing"
)

// TestAnalyzeCallbacks (issue 26, item 7): builtins that run code given
// in an option. A callback evaluated with words appended at run time
// (compgen -C, complete -C, mapfile -C) or a word list expanded when used
// (compgen -W '$(cmd)') is Dynamic, as are bind -x and fc, which runs
// commands again from the history; jobs -x is unwrapped to the command it
// runs; command, builtin and exec before them change nothing.
func TestAnalyzeCallbacks(t *testing.T) {
	tests := []struct {
		line string
		want []Command
	}{
		{"compgen -C 'touch P' x", cmds(d("compgen", "-C", "touch P", "x"))},
		{"compgen -aC 'touch P' x", cmds(d("compgen", "-aC", "touch P", "x"))},
		{"compgen -C'touch P' x", cmds(d("compgen", "-Ctouch P", "x"))},
		{"compgen -W '$(touch P)' x", cmds(d("compgen", "-W", "$(touch P)", "x"))},
		{"compgen -W '`touch P`' x", cmds(d("compgen", "-W", "`touch P`", "x"))},
		{"compgen -W '<(touch P)' x", cmds(d("compgen", "-W", "<(touch P)", "x"))},
		{"compgen -W '${x:=$(touch P)}' x", cmds(d("compgen", "-W", "${x:=$(touch P)}", "x"))},
		{`compgen $OPT x`, cmds(d("compgen", "$OPT", "x"))},
		{"compgen -Z x", cmds(d("compgen", "-Z", "x"))},
		{"complete -C 'touch P' git", cmds(d("complete", "-C", "touch P", "git"))},
		{"complete -W '$(touch P)' git", cmds(d("complete", "-W", "$(touch P)", "git"))},
		{"builtin compgen -C 'touch P' x", cmds(d("compgen", "-C", "touch P", "x"))},
		{"command compgen -C 'touch P' x", cmds(d("compgen", "-C", "touch P", "x"))},
		{"mapfile -C 'touch P' -c 1 a < f", cmds(d("mapfile", "-C", "touch P", "-c", "1", "a"))},
		{"readarray -tC 'touch P' a < f", cmds(d("readarray", "-tC", "touch P", "a"))},
		{"command mapfile -C 'touch P' a < f", cmds(d("mapfile", "-C", "touch P", "a"))},
		{`bind -x '"\C-x": touch P'`, cmds(d("bind", "-x", `"\C-x": touch P`))},
		{"bind -m vi -x x", cmds(d("bind", "-m", "vi", "-x", "x"))},
		{"fc -s", cmds(d("fc", "-s"))},
		{"fc -e 'touch P' -1", cmds(d("fc", "-e", "touch P", "-1"))},
		{"fc", cmds(d("fc"))},
		{"history -s 'touch P'; fc -s", cmds(c("history", "-s", "touch P"), d("fc", "-s"))},
		{"jobs -x touch P", cmds(c("touch", "P"))},
		{"jobs -x kill %1", cmds(c("kill", "%1"))},
		{"jobs -x $CMD", cmds(d("jobs", "-x", "$CMD"))},
		{"eval 'touch P'", cmds(d("eval", "touch P"))},
		{"builtin eval 'touch P'", cmds(d("eval", "touch P"))},
		{"source ./x.sh", cmds(d("source", "./x.sh"))},
		{"trap 'touch P' EXIT", cmds(c("trap", "touch P", "EXIT"), c("touch", "P"))},
		// Nothing runs.
		{"compgen -A file x", cmds(c("compgen", "-A", "file", "x"))},
		{"compgen -W 'start stop' -- st", cmds(c("compgen", "-W", "start stop", "--", "st"))},
		{"compgen -F _f x", cmds(c("compgen", "-F", "_f", "x"), c("_f"))},
		{"_f() { touch P; }; compgen -F _f x", cmds(c("touch", "P"), c("compgen", "-F", "_f", "x"), c("_f"))},
		{"complete -F _f git", cmds(c("complete", "-F", "_f", "git"), c("_f"))},
		{"complete -p", cmds(c("complete", "-p"))},
		{"bind -p", cmds(c("bind", "-p"))},
		{"fc -l", cmds(c("fc", "-l"))},
		{"fc -ln -5", cmds(c("fc", "-ln", "-5"))},
		{"jobs -l", cmds(c("jobs", "-l"))},
	}
	for _, tt := range tests {
		a := Analyze(tt.line)
		for i := range a.Commands {
			a.Commands[i].Beyond = ""
		}
		if !a.Parsed || !reflect.DeepEqual(a.Commands, tt.want) {
			t.Errorf("Analyze(%q) =\n  %s\nwant\n  %s", tt.line, show(a.Commands), show(tt.want))
		}
	}
}
