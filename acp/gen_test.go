package acp

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"companion/internal/acpgen"
)

// TestGeneratedFilesUpToDate regenerates the types in memory from the
// pinned schema and compares them byte for byte with the files on disk.
func TestGeneratedFilesUpToDate(t *testing.T) {
	schema, err := os.ReadFile(filepath.Join("schema", "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	meta, err := os.ReadFile(filepath.Join("schema", "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := acpgen.Generate(schema, meta)
	if err != nil {
		t.Fatalf("acpgen.Generate: %v", err)
	}
	for name, src := range want {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%s: %v; run go generate ./acp", name, err)
			continue
		}
		if !bytes.Equal(got, src) {
			t.Errorf("%s is stale; run go generate ./acp", name)
		}
	}
	onDisk, err := filepath.Glob("*_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range onDisk {
		if _, ok := want[name]; !ok {
			t.Errorf("%s is not produced by acpgen any more; delete it and run go generate ./acp", name)
		}
	}
}
