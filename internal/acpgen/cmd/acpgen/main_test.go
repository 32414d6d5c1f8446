package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"companion/acp/schema"
	"companion/internal/acpgen"
)

// TestRunWritesFiles runs the command on the pinned schema into a temp dir.
func TestRunWritesFiles(t *testing.T) {
	dir := t.TempDir()
	schemaPath := filepath.Join(dir, "schema.json")
	metaPath := filepath.Join(dir, "meta.json")
	if err := os.WriteFile(schemaPath, schema.JSON, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(metaPath, schema.Meta, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-schema", schemaPath, "-meta", metaPath, "-out", dir}); err != nil {
		t.Fatal(err)
	}
	want, err := acpgen.Generate(schema.JSON, schema.Meta)
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, src) {
			t.Errorf("%s differs from Generate's output", name)
		}
	}
	if err := run([]string{"-schema", filepath.Join(dir, "missing.json"), "-out", dir}); err == nil {
		t.Error("missing schema file: no error")
	}
}
