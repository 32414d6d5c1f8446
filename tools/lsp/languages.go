package lsp

import (
	"path/filepath"
	"strings"
)

// languageExts are the file extensions of the language ids settings may
// name under "languages" (a function: no package-level state).
func languageExts() map[string][]string {
	return map[string][]string{
		"go":              {".go"},
		"typescript":      {".ts", ".mts", ".cts"},
		"typescriptreact": {".tsx"},
		"javascript":      {".js", ".mjs", ".cjs"},
		"javascriptreact": {".jsx"},
		"python":          {".py", ".pyi"},
		"rust":            {".rs"},
		"c":               {".c", ".h"},
		"cpp":             {".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"},
	}
}

// extensionsOf returns the extensions of language ids (case-insensitive,
// "TypeScript" too); unknown ids add none.
func extensionsOf(langs []string) []string {
	var out []string
	known := languageExts()
	for _, l := range langs {
		out = append(out, known[strings.ToLower(l)]...)
	}
	return out
}

// languageID is the LSP language id of a file, from its extension.
func languageID(path string) string {
	ext := strings.ToLower(filepath.Ext(path))
	for id, exts := range languageExts() {
		for _, e := range exts {
			if e == ext {
				return id
			}
		}
	}
	return strings.TrimPrefix(ext, ".")
}

// defaults are the built-in servers; each applies only when its command
// is on PATH (found by lookPath). Python prefers basedpyright over
// pyright.
func defaults(lookPath func(string) (string, error)) []Server {
	py := Server{Name: "pyright", Command: "pyright-langserver", Args: []string{"--stdio"},
		Install: "npm install -g pyright"}
	if p, err := lookPath("basedpyright-langserver"); err == nil {
		py = Server{Name: "pyright", Command: "basedpyright-langserver", Args: []string{"--stdio"}, Path: p}
	}
	py.Extensions = extensionsOf([]string{"python"})
	py.RootMarkers = []string{"pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "pyrightconfig.json"}
	return []Server{
		{Name: "gopls", Command: "gopls", Extensions: extensionsOf([]string{"go"}),
			RootMarkers: []string{"go.work", "go.mod"}, Install: "go install golang.org/x/tools/gopls@latest"},
		{Name: "typescript-language-server", Command: "typescript-language-server", Args: []string{"--stdio"},
			Extensions:  extensionsOf([]string{"typescript", "typescriptreact", "javascript", "javascriptreact"}),
			RootMarkers: []string{"tsconfig.json", "jsconfig.json", "package.json"},
			Install:     "npm install -g typescript-language-server typescript"},
		py,
		{Name: "rust-analyzer", Command: "rust-analyzer", Extensions: extensionsOf([]string{"rust"}),
			RootMarkers: []string{"Cargo.toml"}, Install: "rustup component add rust-analyzer"},
		{Name: "clangd", Command: "clangd", Extensions: extensionsOf([]string{"c", "cpp"}),
			RootMarkers: []string{"compile_commands.json", "compile_flags.txt", ".clangd"},
			Install:     "apt-get install clangd (or your system's package manager)"},
	}
}

// rootFor is the folder of the nearest root marker of s above path,
// stopping at top (the session root holding path); top when none is
// found.
func rootFor(s Server, path, top string, exists func(string) bool) string {
	dir := filepath.Dir(path)
	for {
		for _, m := range s.RootMarkers {
			if exists(filepath.Join(dir, m)) {
				return dir
			}
		}
		if dir == top || !strings.HasPrefix(dir, top) {
			return top
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return top
		}
		dir = parent
	}
}
