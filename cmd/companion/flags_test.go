package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/testio"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestParseRunFlagsGolden: argv → the flags companion reads (only those
// not at their defaults) or the error, for companion's own flags and
// `companion run`'s, against testdata/flags.golden.
func TestParseRunFlagsGolden(t *testing.T) {
	argvs := [][]string{
		{},
		{"-p", "hi"},
		{"--prompt", "hi"},
		{"--prompt=hi", "-m", "gemini-2.5-flash"},
		{"--model", "m1", "--debug"},
		{"-y", "-p", "x"},
		{"--yolo", "--approval-mode", "yolo"},
		{"--yolo", "--approval-mode", "plan"},
		{"--approval-mode", "auto-edit"},
		{"-c"},
		{"--continue", "--resume", "latest"},
		{"--continue", "--resume", "sess_1"},
		{"-r"},
		{"-r", "-p", "hi"},
		{"-p", "hi", "-r"},
		{"--resume", "latest"},
		{"--resume", "sess_0123"},
		{"-r=sess_0123"},
		{"-p", "-r"},
		{"-o", "json", "-p", "hi"},
		{"--output-format", "stream-json", "--input-format", "stream-json"},
		{"--include-directories", "../a,../b", "--include-directories", "/c"},
		{"--allowed-tools", "read_file,run_shell_command(git log, git status)"},
		{"--max-turns", "3", "--include-partial-messages"},
		{"--demo", "--sandbox", "read-only", "--log-level", "info"},
		{"-p", "hi", "extra"},
		{"-p", "hi", "--", "-r"},
		{"--bogus"},
		{"-p"},
		{"--max-turns", "many"},
	}
	var b strings.Builder
	for _, argv := range argvs {
		var stderr bytes.Buffer
		f, rest, err := parseRunFlags("companion", argv, &stderr, func(io.Writer) {})
		fmt.Fprintf(&b, "%q\n", argv)
		if err != nil {
			fmt.Fprintf(&b, "  error: %s\n", strings.TrimSpace(firstStderrLine(stderr.String(), err)))
			continue
		}
		b.WriteString(describeFlags(f, rest))
	}
	golden(t, filepath.Join("testdata", "flags.golden"), b.String())
}

// firstStderrLine is what companion printed first about err.
func firstStderrLine(stderr string, err error) string {
	if line, _, _ := strings.Cut(stderr, "\n"); line != "" {
		return line
	}
	return err.Error()
}

// describeFlags lists f's values that are not the defaults, one a line.
func describeFlags(f runFlags, rest []string) string {
	var b strings.Builder
	add := func(name string, v any, zero any) {
		if fmt.Sprint(v) != fmt.Sprint(zero) {
			fmt.Fprintf(&b, "  %s: %q\n", name, fmt.Sprint(v))
		}
	}
	add("prompt", f.prompt, "")
	add("model", f.acp.Model, "")
	add("debug", f.acp.Debug, false)
	add("demo", f.acp.Demo, false)
	add("sandbox", f.acp.Sandbox, "")
	add("log-level", f.acp.LogLevel, "")
	add("output-format", f.outputFormat, "text")
	add("input-format", f.inputFormat, "text")
	add("approval-mode", f.approvalMode, "")
	add("resume", f.resume, "")
	add("include-directories", strings.Join(f.includeDirs, "|"), "")
	add("allowed-tools", strings.Join(f.rules(), "|"), "")
	add("max-turns", f.maxTurns, 0)
	add("include-partial-messages", f.partial, false)
	add("args", strings.Join(rest, "|"), "")
	if b.Len() == 0 {
		return "  (defaults)\n"
	}
	return b.String()
}

// golden compares got with the file at path (go test -update rewrites it).
func golden(t *testing.T, path, got string) {
	t.Helper()
	testio.Golden(t, path, []byte(got), *update)
}
