package shell

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fuzzGrammar returns the pieces lines are built from, in the order
// fuzzLine uses them: the forms of issue 14 (values evaluated as code, cd,
// wrappers, substitutions, redirects) joined by lists and pipes. OUT is
// the folder beside the working one.
func fuzzGrammar() (assigns, cds, wrappers, programs, args, redirects, joins, shapes []string) {
	return []string{"", "x='a[$(touch P)]'; ", "x=1; ", "y=x; ", "a=(1 2); ", "declare -i n; n=x; "},
		[]string{"", "cd OUT && ", "pushd OUT >/dev/null; ", "cd .. ; ", "builtin cd OUT; "},
		[]string{"", "command ", "env ", "nice ", "timeout 5 ", "env X=1 ", "nohup ", "xargs "},
		[]string{"ls", "touch A", "cat /dev/null", "rm -f A", "touch B", "ls -a", "echo hi", "true"},
		[]string{"", " $((x))", " ${x@P}", " ${!y}", " ${a[x]}", " ${x:x}", " $[x]", " $(touch C)", " \"$x\"", " $((1+2))"},
		[]string{"", " > A", " >> B", " 2> C", " > OUT/D", " &> E", " > /dev/null", " > \"$x\""},
		[]string{"; ", " && ", " || ", " | ", "\n"},
		[]string{"%s", "(%s)", "bash -c '%s'", "echo $(%s)", "{ %s; }", "[[ $x -eq 0 ]] && %s", "(( x )); %s",
			"case 1 in $((x))) %s;; esac"}
}

// fuzzLine builds a shell line from data, one byte per choice.
func fuzzLine(data []byte, out string) string {
	pick := func(list []string) string {
		if len(data) == 0 {
			return list[0]
		}
		b := data[0]
		data = data[1:]
		return list[int(b)%len(list)]
	}
	assigns, cds, wrappers, programs, args, redirects, joins, shapes := fuzzGrammar()
	var b strings.Builder
	segments := 1
	if len(data) > 0 {
		segments += int(data[0]) % 3
		data = data[1:]
	}
	for i := range segments {
		if i > 0 {
			b.WriteString(pick(joins))
		}
		cmd := pick(wrappers) + pick(programs) + pick(args) + pick(redirects)
		shape := pick(shapes)
		if strings.HasPrefix(shape, "bash -c") {
			cmd = strings.ReplaceAll(cmd, "'", `'\''`)
		}
		b.WriteString(pick(assigns) + pick(cds) + strings.Replace(shape, "%s", cmd, 1))
	}
	return strings.ReplaceAll(b.String(), "OUT", out)
}

// bashHarness runs lines with bash in a throwaway folder, with recorder
// shims first in PATH that log their name and run the real program.
type bashHarness struct {
	bash, shims, log string
	programs         []string
}

// newBashHarness writes the shims, or skips the test without bash.
func newBashHarness(t testing.TB) *bashHarness {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	dir := t.TempDir()
	h := &bashHarness{bash: bash, shims: filepath.Join(dir, "shims"), log: filepath.Join(dir, "ran.log")}
	if err := os.Mkdir(h.shims, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ls", "touch", "cat", "rm", "echo", "true"} {
		real, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		shim := "#!/bin/sh\nprintf '%s\\n' " + name + " >> " + h.log + "\nexec " + real + " \"$@\"\n"
		if err := os.WriteFile(filepath.Join(h.shims, name), []byte(shim), 0o755); err != nil {
			t.Fatal(err)
		}
		h.programs = append(h.programs, name)
	}
	return h
}

// run runs line in a fresh folder beside an "out" folder and returns the
// programs that ran and the files created (absolute paths).
func (h *bashHarness) run(t testing.TB, line, work, out string) ([]string, []string) {
	os.Remove(h.log)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.bash, "--norc", "--noprofile", "-c", line)
	cmd.Dir = work
	cmd.Env = []string{"PATH=" + h.shims + ":" + os.Getenv("PATH"), "HOME=" + work, "LC_ALL=C"}
	cmd.Run() // the exit status does not matter; what ran does
	logged, _ := os.ReadFile(h.log)
	var ran []string
	for _, name := range strings.Fields(string(logged)) {
		if !slices.Contains(ran, name) {
			ran = append(ran, name)
		}
	}
	var created []string
	for _, dir := range []string{work, out} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			created = append(created, filepath.Join(dir, e.Name()))
		}
	}
	return ran, created
}

// FuzzAnalyzeAgainstBash checks the analyser against bash itself: for a
// line built from the grammar pieces, either the analysis says it cannot
// know (not parsed, a Dynamic command: the policy asks), or every program
// that ran is among its commands and every file created is a reported
// redirect target or an argument of a reported command (touch A); a
// relative target after cd must be reported as unknown ("").
func FuzzAnalyzeAgainstBash(f *testing.F) {
	h := newBashHarness(f)
	for _, seed := range [][]byte{{0}, {1, 1, 1, 1, 1, 1, 1, 1}, {2, 0, 3, 1, 4, 0, 0, 0, 2, 1}, {0, 0, 0, 1, 1, 0, 0, 0}} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		root := t.TempDir()
		work, out := filepath.Join(root, "work"), filepath.Join(root, "out")
		os.Mkdir(work, 0o755)
		os.Mkdir(out, 0o755)
		line := fuzzLine(data, out)
		a := Analyze(line)
		if !a.Parsed || slices.ContainsFunc(a.Commands, func(c Command) bool { return c.Dynamic }) {
			return // unknown: the policy asks
		}
		ran, created := h.run(t, line, work, out)
		listed := map[string]bool{}
		var words []string
		for _, c := range a.Commands {
			listed[filepath.Base(c.Words[0])] = true
			words = append(words, c.Words...)
		}
		for _, name := range ran {
			if !listed[name] {
				t.Errorf("line %q ran %s, which the analysis does not list: %s", line, name, show(a.Commands))
			}
		}
		if slices.Contains(a.Redirects, "") {
			return // an unknown target: the policy asks
		}
		for _, file := range created {
			if !accounted(file, work, a.Redirects, words) {
				t.Errorf("line %q created %s, which the analysis does not report (redirects %q)", line, file, a.Redirects)
			}
		}
	})
}

// accounted reports whether a created file is a reported redirect target
// (relative ones from work) or may be named by a reported command's word:
// the word itself, or a word holding an expansion (touch $((1+2))).
func accounted(file, work string, redirects, words []string) bool {
	for _, r := range redirects {
		if !filepath.IsAbs(r) {
			r = filepath.Join(work, r)
		}
		if filepath.Clean(r) == file {
			return true
		}
	}
	return slices.ContainsFunc(words, func(w string) bool {
		return w == filepath.Base(file) || strings.ContainsAny(w, "$`")
	})
}
