package checkpoint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// benchFiles is the size of the benchmark project: small files in 40
// directories, like a mid-sized source tree.
const benchFiles = 2000

// benchProject writes benchFiles small files under a fresh root and returns
// the root and the files' paths.
func benchProject(b *testing.B) (string, []string) {
	b.Helper()
	root := filepath.Join(b.TempDir(), "project")
	paths := make([]string, 0, benchFiles)
	for i := range benchFiles {
		rel := fmt.Sprintf("pkg%02d/file%04d.go", i%40, i)
		full := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			b.Fatal(err)
		}
		content := fmt.Sprintf("package pkg%02d\n\n// File %d.\nfunc F%d() int { return %d }\n", i%40, i, i, i)
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
		paths = append(paths, rel)
	}
	return root, paths
}

// BenchmarkSave measures Save on a project of benchFiles small files: the
// first save into an empty store, and an incremental save after one file
// changed. The git backend snapshots the whole tree and is given one path;
// the file backend is given all paths on the first save and one after.
func BenchmarkSave(b *testing.B) {
	root, paths := benchProject(b)
	cases := []struct {
		name  string
		opts  []Option
		first []string
	}{
		{"git", nil, paths[:1]},
		{"files", []Option{WithoutGit()}, paths},
	}
	for _, bc := range cases {
		b.Run(bc.name+"/first", func(b *testing.B) {
			if bc.opts == nil {
				requireGit(b)
			}
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				s, err := Open(filepath.Join(b.TempDir(), fmt.Sprint(i)), root, nil, bc.opts...)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := s.Save(context.Background(), "first", bc.first); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"/incremental", func(b *testing.B) {
			if bc.opts == nil {
				requireGit(b)
			}
			s, err := Open(filepath.Join(b.TempDir(), "state"), root, nil, bc.opts...)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.Save(context.Background(), "first", bc.first); err != nil {
				b.Fatal(err)
			}
			changed := filepath.Join(root, filepath.FromSlash(paths[7]))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if err := os.WriteFile(changed, fmt.Appendf(nil, "package x // %d\n", i), 0o644); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := s.Save(context.Background(), "edit", paths[7:8]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
