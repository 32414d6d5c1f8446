package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"companion/tools"
)

// largeGoFile returns a Go-like file of n lines, tab-indented.
func largeGoFile(n int) string {
	var b strings.Builder
	for i := 0; i < n; i += 5 {
		fmt.Fprintf(&b, "func f%06d(x int) int {\n\ty := x * %d\n\tif y > %d {\n\t\treturn y - %d\n\t}\n", i, i%97, i%89, i%13)
	}
	return b.String()
}

// BenchmarkReplaceLargeFile runs replace on a 100,000-line file: Prepare,
// Confirmation (reading, matching, the whole new text for the editor) and
// Execute (re-reading to check for changes, writing, and the unified diff
// of the result).
func BenchmarkReplaceLargeFile(b *testing.B) {
	text := largeGoFile(100_000)
	mid := "func f050000(x int) int {\n\ty := x * 45\n"
	if !strings.Contains(text, mid) {
		b.Fatal("fixture lacks the line to replace")
	}
	cases := []struct {
		name, old, new string
		local, many    bool
		display        string // the result's Display shows this
	}{
		{"exact/editor", mid, "func f050000(x int) int {\n\ty := x * 46\n", false, false, "+\ty := x * 46"},
		{"exact/local", mid, "func f050000(x int) int {\n\ty := x * 46\n", true, false, "+\ty := x * 46"},
		{"whitespace/editor", "func f050000(x int) int {\n    y := x * 45", "func f050000(x int) int {\n    y := x * 46", false, false, "+\ty := x * 46"},
		{"fuzzy/editor", "func f050000(x int) int {\n\ty := x * 45;\n\tif y > 71 {", "func f050000(x int) int {\n\ty := x * 46\n\tif y > 71 {", false, false, "+\ty := x * 46"},
		// About 225 replacements spread over the file.
		{"allow_multiple/editor", "\tif y > 7 {\n", "\tif y >= 7 {\n", false, true, "(+225 −225)"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			root, err := filepath.EvalSymlinks(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			roots, err := tools.NewRoots(root)
			if err != nil {
				b.Fatal(err)
			}
			path := filepath.Join(root, "big.go")
			env := &tools.Env{Roots: roots, Log: slog.New(slog.DiscardHandler)}
			files := newMemFiles(nil)
			if !c.local {
				env.Files = files
			}
			args, _ := json.Marshal(map[string]any{"file_path": "big.go", "old_string": c.old, "new_string": c.new, "allow_multiple": c.many})
			tool := Editing(EditOptions{})[0]
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				if c.local {
					if err := tools.WriteFileAtomic(path, []byte(text), 0o644); err != nil {
						b.Fatal(err)
					}
				} else {
					_ = files.WriteTextFile(ctx, path, text)
				}
				b.StartTimer()
				inv, err := tool.Prepare(env, args)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := inv.Confirmation(ctx); err != nil {
					b.Fatal(err)
				}
				res, err := inv.Execute(ctx, nil)
				if err != nil || res.IsError || !strings.Contains(res.Display, c.display) {
					b.Fatalf("Execute = %+v, %v", res, err)
				}
			}
		})
	}
}
