// Command acpgen writes companion's generated ACP types:
//
//	go run ./internal/acpgen/cmd/acpgen -schema acp/schema/schema.json -meta acp/schema/meta.json -out acp
//
// It is normally run by `go generate ./acp`.
package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"

	"companion/internal/acpgen"
)

func main() {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(os.Args[1:]); err != nil {
		log.Error("acpgen failed", "err", err)
		os.Exit(1)
	}
}

// run parses flags, generates and writes the files.
func run(args []string) error {
	fs := flag.NewFlagSet("acpgen", flag.ContinueOnError)
	schemaPath := fs.String("schema", "schema/schema.json", "path of the ACP JSON Schema")
	metaPath := fs.String("meta", "schema/meta.json", "path of the ACP meta.json")
	outDir := fs.String("out", ".", "directory to write the generated files into")
	if err := fs.Parse(args); err != nil {
		return err
	}
	schema, err := os.ReadFile(*schemaPath)
	if err != nil {
		return fmt.Errorf("read schema: %w", err)
	}
	meta, err := os.ReadFile(*metaPath)
	if err != nil {
		return fmt.Errorf("read meta: %w", err)
	}
	files, err := acpgen.Generate(schema, meta)
	if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(*outDir, name), files[name], 0o644); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	return nil
}
