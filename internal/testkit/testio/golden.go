package testio

import (
	"os"
	"testing"
)

// Golden compares got with the golden file at path; with update it first
// rewrites the file (creating its folder), so `go test -update` records
// what the code now produces for a reviewer to diff.
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		WriteFile(t, path, got)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("differs from %s (go test -update rewrites it):\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}
