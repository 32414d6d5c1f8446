package shell

import (
	"path"
	"reflect"
	"testing"
)

// TestAnalyzeInterpreters (issue 26, item 5): an interpreter that runs
// code other than a script file its words name (code on its command
// line, fed on standard input, loaded by an option) is Beyond, so no rule
// naming the interpreter covers it; a module it looks up is Fixed, so
// only a rule naming the module does. A script file, or no code at all,
// is neither.
func TestAnalyzeInterpreters(t *testing.T) {
	const beyond, file = true, false
	tests := []struct {
		line   string
		beyond bool
		fixed  int
	}{
		// Standard input, in every spelling.
		{"python3 <<'EOF'\nopen('PWNED', 'w')\nEOF", beyond, 0},
		{"python3 <<< 'import os'", beyond, 0},
		{"cat x.py | python3", beyond, 0},
		{"python3 < x.py", beyond, 0},
		{"python3 - arg < x.py", beyond, 0},
		{"python3 -- - arg", beyond, 0},
		{"python3 /dev/stdin <<< x", beyond, 0},
		{"python3 /dev/fd/0 <<< x", beyond, 0},
		{"python3 /proc/self/fd/0 <<< x", beyond, 0},
		{"python3 -u", beyond, 0},
		{"python3 -W ignore", beyond, 0},
		{"python3.12 -X dev", beyond, 0},
		{"python3 -i gen.py <<< x", beyond, 0},
		{"python3 -Bi gen.py", beyond, 0},
		{"/usr/bin/python3 <<< x", beyond, 0},
		{".venv/bin/python <<< x", beyond, 0},
		{"pypy3 <<< x", beyond, 0},
		{"{ python3; } <<< x", beyond, 0},
		{"node <<< 'x'", beyond, 0},
		{"nodejs - < x.js", beyond, 0},
		{"node -i", beyond, 0},
		{"node --interactive app.js", beyond, 0},
		{"ruby <<< x", beyond, 0},
		{"ruby -w - < x.rb", beyond, 0},
		{"perl <<< x", beyond, 0},
		{"perl -w /dev/stdin", beyond, 0},
		{"php < x.php", beyond, 0},
		{"php -a", beyond, 0},
		{"php -f /dev/stdin", beyond, 0},
		{"lua -", beyond, 0},
		{"luajit <<< x", beyond, 0},
		{"tclsh < x.tcl", beyond, 0},
		{"wish", beyond, 0},
		{"Rscript - < x.R", beyond, 0},
		{"R --vanilla < x.R", beyond, 0},
		{"R --no-save x.R < y.R", beyond, 0},
		{"julia <<< x", beyond, 0},
		{"osascript <<< x", beyond, 0},
		{"fish <<< 'touch P'", beyond, 0},
		{"python3 ../../../../dev/stdin <<< x", beyond, 0},
		{"python3 /dev/./stdin <<< x", beyond, 0},
		{"ipython <<< x", beyond, 0},
		{"deno", beyond, 0},
		{"deno repl <<< x", beyond, 0},
		{"deno run - <<< x", beyond, 0},
		{"deno run -c deno.json - <<< x", beyond, 0},
		{"deno - <<< x", beyond, 0},
		{"bun - <<< x", beyond, 0},
		{"bun run - < x.ts", beyond, 0},
		{"bun repl", beyond, 0},
		// Code on the command line, also in a cluster or glued.
		{"python3 -c 'import os'", beyond, 0},
		{"python3 -Sc 'x'", beyond, 0},
		{"python3 -cimport", beyond, 0},
		{"python3 -E -s -c x", beyond, 0},
		{"node --eval x", beyond, 0},
		{"node --print=x", beyond, 0},
		{"node -p x", beyond, 0},
		{"ruby -e x", beyond, 0},
		{"perl -E 'say 1'", beyond, 0},
		{"php -r x", beyond, 0},
		{"php -B x -R y", beyond, 0},
		{"lua -e x", beyond, 0},
		{"lua -v -e x", beyond, 0},
		{"perl -V -e x", beyond, 0},
		{"perl -V:cc -e x", beyond, 0},
		{"luajit -v - < x.lua", beyond, 0},
		{"Rscript -e x", beyond, 0},
		{"R -e x", beyond, 0},
		{"julia --eval x", beyond, 0},
		{"osascript -e x", beyond, 0},
		{"deno eval 'Deno.exit()'", beyond, 0},
		{"bun -e x", beyond, 0},
		{"bun --eval=x", beyond, 0},
		{"bun --print x", beyond, 0},
		{"bun --preload ./evil.ts x.ts", beyond, 0},
		{"deno run $F", beyond, 0},
		{"fish -c 'touch P'", beyond, 0},
		{"fish --init-command=x f.fish", beyond, 0},
		// Code loaded by an option, options not known, words known only
		// at run time.
		{"node -r ./evil.js app.js", beyond, 0},
		{"node --import=./evil.mjs app.js", beyond, 0},
		{"node --env-file .env app.js", beyond, 0},
		{"node --run build", beyond, 0},
		{"ruby -r ./evil x.rb", beyond, 0},
		{"ruby -i.bak -pe x f", beyond, 0},
		{"perl -MEvil x.pl", beyond, 0},
		{"perl -d:Evil x.pl", beyond, 0},
		{"php -d auto_prepend_file=evil.php x.php", beyond, 0},
		{"php -S localhost:8000", beyond, 0},
		{"lua -l evil x.lua", beyond, 0},
		{"julia -L evil.jl x.jl", beyond, 0},
		{"python3 -Z x.py", beyond, 0},
		{"node --title x", beyond, 0},
		{"python3 $SCRIPT", beyond, 0},
		{"python3 <(curl -s url)", beyond, 0},
		{"python3 $OPT x.py", beyond, 0},
		// A module the call chooses: the rule must name it.
		{"python3 -m http.server 8000", file, 3},
		{"python3 -B -m pytest -k x", file, 4},
		{"python3 -mpytest", file, 2},
		{"python -m pip install x", file, 3},
		{"python3 -m", beyond, 0},
		// A script file, or no code.
		{"python3 gen.py", file, 0},
		{"python3 -u -W ignore gen.py < data.txt", file, 0},
		{"python3 -- gen.py", file, 0},
		{"cat data | python3 gen.py", file, 0},
		{"python3 --version", file, 0},
		{"python3 -V", file, 0},
		{"node app.js", file, 0},
		{"node --enable-source-maps --max-old-space-size=4096 dist/main.js", file, 0},
		{"node --test", file, 0},
		{"node --no-addons --no-experimental-fetch app.js", file, 0},
		{"node --no-addons <<< x", beyond, 0},
		{"ruby x.rb", file, 0},
		{"perl -w x.pl", file, 0},
		{"php -f x.php", file, 0},
		{"php x.php", file, 0},
		{"lua x.lua", file, 0},
		{"lua -v", file, 0},
		{"perl -V", file, 0},
		{"perl -V:cc", file, 0},
		{"perl -v", file, 0},
		{"tclsh x.tcl", file, 0},
		{"Rscript x.R", file, 0},
		{"R -f x.R", file, 0},
		{"R --file=x.R", file, 0},
		{"julia --project=. x.jl", file, 0},
		{"osascript x.scpt", file, 0},
		{"fish x.fish", file, 0},
		{"deno run -A main.ts", file, 0},
		{"deno main.ts", file, 0},
		{"deno --version", file, 0},
		{"deno task dev", file, 0},
		{"bun x.ts", file, 0},
		{"bun run dev", file, 0},
		{"bun install", file, 0},
		{"python3 ../tools/gen.py", file, 0},
	}
	for _, tt := range tests {
		a := Analyze(tt.line)
		cmd, ok := interpreterCommand(a)
		if !a.Parsed || !ok {
			t.Errorf("Analyze(%q): no interpreter command in %+v", tt.line, a.Commands)
			continue
		}
		if (cmd.Beyond != "") != tt.beyond || cmd.Fixed != tt.fixed || cmd.Dynamic {
			t.Errorf("Analyze(%q) = %+v, want Beyond %v, Fixed %d", tt.line, cmd, tt.beyond, tt.fixed)
		}
	}
}

// interpreterCommand is the command of a that runs an interpreter.
func interpreterCommand(a Analysis) (Command, bool) {
	for _, c := range a.Commands {
		if _, ok := langOf(path.Base(c.Words[0])); ok {
			return c, true
		}
	}
	return Command{}, false
}

// TestAnalyzeShellStdin: a shell reading its script from standard input
// in disguise (/dev/stdin, /dev/fd/0) is read like one reading it from
// standard input: a here-document is parsed, a pipe is Dynamic; another
// descriptor is Dynamic; a script file fed on standard input and a
// start-up file option are Beyond.
func TestAnalyzeShellStdin(t *testing.T) {
	tests := []struct {
		line   string
		want   []Command
		beyond bool
	}{
		{"bash /dev/stdin <<< 'rm x'", cmds(c("rm", "x")), false},
		{"sh /dev/fd/0 <<'EOF'\nrm x\nEOF", cmds(c("rm", "x")), false},
		{"echo 'rm x' | bash /dev/stdin", cmds(c("echo", "rm x"), d("bash", "/dev/stdin")), false},
		{"cat x | sh /proc/self/fd/0", cmds(c("cat", "x"), d("sh", "/proc/self/fd/0")), false},
		{"bash /dev/fd/3 3<<< 'rm x'", cmds(d("bash", "/dev/fd/3")), false},
		{"bash < s.sh", cmds(c("bash")), true},
		{"bash --rcfile evil.sh -i <<< ls", cmds(c("bash", "--rcfile", "evil.sh", "-i"), c("ls")), true},
		{"bash s.sh", cmds(c("bash", "s.sh")), false},
	}
	for _, tt := range tests {
		a := Analyze(tt.line)
		beyond := anyBeyond(a)
		for i := range a.Commands {
			a.Commands[i].Beyond = ""
		}
		if !reflect.DeepEqual(a.Commands, tt.want) || beyond != tt.beyond {
			t.Errorf("Analyze(%q) = %s (beyond %v)\nwant %s (beyond %v)", tt.line, show(a.Commands), beyond, show(tt.want), tt.beyond)
		}
	}
}

// TestAnalyzeRunners: a runner (uv run, poetry run, bundle exec, npx)
// running an interpreter is judged by the interpreter's code: a rule
// naming "uv run python" covers no code given on standard input, and one
// naming a module must name it after the runner's words too.
func TestAnalyzeRunners(t *testing.T) {
	tests := []struct {
		line   string
		beyond bool
		fixed  int
	}{
		{"uv run python <<< x", true, 0},
		{"uv run --with x python -c y", true, 0},
		{"uv run --python python3 python3 -c x", true, 0},
		{"poetry run python - < x.py", true, 0},
		{"pipenv run python3 /dev/stdin <<< x", true, 0},
		{"bundle exec ruby -e x", true, 0},
		{"npx node -e x", true, 0},
		{"yarn node <<< x", true, 0},
		{"conda run -n env python <<< x", true, 0},
		{"uv run python -m pytest -x", false, 5},
		{"uv run python gen.py", false, 0},
		{"uv run --python python3 python3 gen.py", false, 0},
		{"uv run pytest", false, 0},
		{"npx tsx x.ts", false, 0},
		{"pnpm exec node app.js", false, 0},
		{"uv pip install python3", false, 0},
		{"apt-get install python3 nodejs", false, 0},
	}
	for _, tt := range tests {
		a := Analyze(tt.line)
		if len(a.Commands) != 1 {
			t.Errorf("Analyze(%q) = %+v, want one command", tt.line, a.Commands)
			continue
		}
		if cmd := a.Commands[0]; (cmd.Beyond != "") != tt.beyond || cmd.Fixed != tt.fixed || cmd.Dynamic {
			t.Errorf("Analyze(%q) = %+v, want Beyond %v, Fixed %d", tt.line, cmd, tt.beyond, tt.fixed)
		}
	}
}
