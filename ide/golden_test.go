package ide

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

// errNoFile is what the fake editor answers for a file it does not hold.
var errNoFile = errors.New("no such buffer")

// fakeBuffers plays the editor's buffers for ReadFileFunc.
func fakeBuffers(files map[string]string) ReadFileFunc {
	return func(_ context.Context, path string) (string, error) {
		text, ok := files[path]
		if !ok {
			return "", errNoFile
		}
		return text, nil
	}
}

// mustParse decodes a contextUpdate's params or fails the test.
func mustParse(t *testing.T, raw string) Context {
	t.Helper()
	_, c, err := ParseUpdate([]byte(raw))
	if err != nil {
		t.Fatalf("ParseUpdate(%s): %v", raw, err)
	}
	return c
}
