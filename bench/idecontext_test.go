package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/ide"
)

// BenchmarkIDEContext500 measures the editor context of a session with 500
// open files, the way editors send it: every update lists every open file
// (the cursor moved in the newest), then the next prompt renders what
// changed; and the full rendering of the first prompt, which reads the
// active file for the lines around its cursor (a 20 000-line file). The
// work follows the files the context keeps (10), not the 500 sent nor the
// repository.
func BenchmarkIDEContext500(b *testing.B) {
	dir := b.TempDir()
	active := filepath.Join(dir, "big.go")
	if err := os.WriteFile(active, []byte(strings.Repeat("line of source code here\n", 20000)), 0o644); err != nil {
		b.Fatal(err)
	}
	read := func(_ context.Context, p string) (string, error) {
		data, err := os.ReadFile(p)
		return string(data), err
	}
	update := func(line uint32) ide.Context {
		files := make([]ide.OpenFile, 500)
		for i := range files {
			files[i] = ide.OpenFile{URI: ide.URIFromPath(filepath.Join(dir, fmt.Sprintf("pkg%d/file%d.go", i%50, i))), Timestamp: int64(i)}
		}
		files[499] = ide.OpenFile{URI: ide.URIFromPath(active), Timestamp: 1000, IsActive: true, Cursor: &ide.Position{Line: line}}
		return ide.Context{OpenFiles: files}
	}
	ctx := context.Background()
	b.Run("update+delta", func(b *testing.B) {
		t := ide.NewTracker(read)
		t.Update(update(0))
		t.Render(ctx, true)
		b.ResetTimer()
		for i := range b.N {
			t.Update(update(uint32(i % 20000)))
			t.Render(ctx, false)
		}
	})
	b.Run("full", func(b *testing.B) {
		t := ide.NewTracker(read)
		t.Update(update(10000))
		b.ResetTimer()
		for range b.N {
			if t.Render(ctx, true) == "" {
				b.Fatal("empty context")
			}
		}
	})
}
