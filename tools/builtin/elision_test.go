package builtin

import "testing"

func TestFindElision(t *testing.T) {
	code := "func f() {\n\ta := 1\n\tb := 2\n\treturn a + b\n}\n"
	tests := []struct {
		name     string
		old, new string
		path     string
		want     string
	}{
		{"line comment ellipsis", code, "func f() {\n\t// ...\n\treturn 3\n}\n", "f.go", "// ..."},
		{"rest of the code unchanged", code, "func f() {\n\ta := 5\n\t// rest of the code unchanged\n}\n", "f.go", "// rest of the code unchanged"},
		{"hash existing code", "x = 1\ny = 2\n", "x = 3\n# ... existing code ...\n", "f.py", "# ... existing code ..."},
		{"block comment ellipsis", code, "func f() {\n\t/* ... */\n}\n", "f.go", "/* ... */"},
		{"html comment", "<p>a</p>\n<p>b</p>\n", "<p>c</p>\n<!-- rest of the file -->\n", "x.html", "<!-- rest of the file -->"},
		{"jsx comment", "<A/>\n<B/>\n", "<C/>\n{/* existing code */}\n", "x.tsx", "{/* existing code */}"},
		{"other methods unchanged", code, "func f() {}\n// other methods remain unchanged\n", "f.go", "// other methods remain unchanged"},
		{"omitted for brevity", code, "func f() {\n\t// error handling omitted for brevity\n}\n", "f.go", "// error handling omitted for brevity"},
		{"bare dots in Go", code, "func f() {\n\ta := 1\n\t...\n}\n", "f.go", "..."},
		{"unicode ellipsis", code, "func f() {\n\t// …\n}\n", "f.go", "// …"},
		// No false positives.
		{"placeholder already in old", "a\n// ...\nb\n", "a2\n// ...\nb\n", "f.go", ""},
		{"existing code phrase already in old", "x\n# ... existing code ...\n", "y\n# ... existing code ...\n", "f.py", ""},
		{"bare dots in Python", "def f():\n    return 1\n", "def f():\n    ...\n", "f.py", ""},
		{"bare dots in Markdown", "one\ntwo\n", "one\n...\n", "README.md", ""},
		{"markdown heading with dots", "a\nb\n", "# ... and more\n", "notes.md", ""},
		{"ordinary comments", code, "func f() {\n\t// Leave the value unchanged when nil.\n\t// See the rest of the file for details.\n\treturn 0\n}\n", "f.go", ""},
		{"spread operator", code, "f(...args)\nconst a = [...b]\n", "f.js", ""},
		{"creating a file", "", "// ...\n", "f.go", ""},
		{"variadic", code, "func f(xs ...int) {}\n", "f.go", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := findElision(tt.old, tt.new, tt.path); got != tt.want {
				t.Errorf("findElision = %q, want %q", got, tt.want)
			}
		})
	}
}
