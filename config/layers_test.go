package config

import (
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// copyTree copies the testdata folder src to a new temporary folder.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		write(t, filepath.Join(dst, rel), string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// layered loads the fixture home and project with env, the flags' model
// (when set) and the project accepted or not.
func layered(t *testing.T, env map[string]string, flagModel string, accept bool) (Config, string, string) {
	t.Helper()
	home, project := copyTree(t, "testdata/layers/home"), copyTree(t, "testdata/layers/project")
	all := map[string]string{"HOME": home}
	for k, v := range env {
		all[k] = v
	}
	t.Setenv("API_TOKEN", "tok") // project files expand from the process environment
	c, err := Load(envFrom(all))
	if err != nil {
		t.Fatal(err)
	}
	if flagModel != "" {
		c.Model = flagModel // as internal/cli.LoadConfig applies --model
	}
	f, err := ReadProjectFile(project)
	if err != nil {
		t.Fatal(err)
	}
	if accept {
		if err := c.Accept(f.Path, f.Hash); err != nil {
			t.Fatal(err)
		}
	}
	return c.ApplyProject(f), home, project
}

// TestLayersGolden shows every layer of the fixture home and project at
// once: the user's files (companion's with comments, trailing commas and
// variables; Gemini CLI's filling the gaps), the project's three files,
// both .env files and the environment.
func TestLayersGolden(t *testing.T) {
	c, home, project := layered(t, map[string]string{"LOG_LEVEL_FROM_ENV": "warn", "GOOGLE_CLOUD_PROJECT": "env-project"}, "", true)
	got, err := json.MarshalIndent(map[string]any{"settings": c.Show(), "warnings": c.Warnings,
		"pending": c.PendingProject}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(c.ProjectMCPServers), `"Bearer tok"`) {
		t.Errorf(".mcp.json headers not expanded: %s", c.ProjectMCPServers)
	}
	text := strings.NewReplacer(project, "$PROJECT", home, "$HOME").Replace(string(got)) + "\n"
	golden := filepath.Join("testdata", "layers.golden.json")
	if *update {
		write(t, golden, text)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if text != string(want) {
		t.Errorf("layers differ from %s (go test -run LayersGolden -update ./config):\n%s", golden, text)
	}
}

// TestEachLayerWins checks the model and the API key through the layers:
// each layer wins over the one before.
func TestEachLayerWins(t *testing.T) {
	tests := []struct {
		name       string
		env        map[string]string
		flag       string
		accept     bool
		wantModel  string
		wantSource string
		wantKey    string
	}{
		{"project over user", nil, "", false, "project-model", ".companion/settings.json", "project-key"},
		{"environment over project", map[string]string{"GEMINI_MODEL": "env-model", "GEMINI_API_KEY": "env-key"}, "", true,
			"env-model", "env GEMINI_MODEL", "env-key"},
		{"flag over environment", map[string]string{"GEMINI_MODEL": "env-model"}, "flag-model", true, "flag-model", "flag", "project-key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, _ := layered(t, tt.env, tt.flag, tt.accept)
			if c.Model != tt.wantModel || !strings.HasSuffix(c.Sources["model"], tt.wantSource) || c.APIKey != tt.wantKey {
				t.Errorf("model %q from %q, key %q; want %q from …%q, key %q",
					c.Model, c.Sources["model"], c.APIKey, tt.wantModel, tt.wantSource, tt.wantKey)
			}
			if c.BaseURL != "" {
				t.Errorf("a project's .env set the Gemini endpoint: %q", c.BaseURL)
			}
		})
	}
}

func TestUserLayers(t *testing.T) {
	home := copyTree(t, "testdata/layers/home")
	c, err := Load(envFrom(map[string]string{"HOME": home}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Model != "user-model" || c.APIKey != "home-key" || c.Location != "us-central1" ||
		!slices.Equal(c.MemoryFileNames, []string{"GEMINI.md", "CLAUDE.md"}) {
		t.Errorf("user layers: model %q key %q location %q memory %q", c.Model, c.APIKey, c.Location, c.MemoryFileNames)
	}
	if c.LogLevel != "$LOG_LEVEL_FROM_ENV" || c.OpenAI.BaseURL != "http://localhost:11434/v1" || c.OpenAI.APIKey != "${UNSET_KEY}" {
		t.Errorf("expansion: logLevel %q baseUrl %q apiKey %q", c.LogLevel, c.OpenAI.BaseURL, c.OpenAI.APIKey)
	}
	if !strings.Contains(string(c.MCPServers), home+"/tool.js") {
		t.Errorf("$HOME not expanded in %s", c.MCPServers)
	}
}

func TestDecodeSettings(t *testing.T) {
	env := envFrom(map[string]string{"A": "alpha", "B": "beta"})
	tests := []struct {
		name, text, want, err string
	}{
		{"plain", `{"model":"m"}`, "m", ""},
		{"line comment", "{\n// note\n\"model\": \"m\" // after\n}", "m", ""},
		{"block comment", `{/* a */"model": /* b */ "m"}`, "m", ""},
		{"trailing commas", "{\"model\": \"m\", \"models\": [\"x\",],}", "m", ""},
		{"braced variable", `{"model":"${A}-x"}`, "alpha-x", ""},
		{"bare variable", `{"model":"$A/$B"}`, "alpha/beta", ""},
		{"default", `{"model":"${NOPE:-fallback}"}`, "fallback", ""},
		{"unset stays", `{"model":"$NOPE and ${NOPE}"}`, "$NOPE and ${NOPE}", ""},
		{"no name", `{"model":"costs $5 or $"}`, "costs $5 or $", ""},
		{"syntax error", "{\n  \"model\": \"m\"\n  \"models\": []\n}", "", "s.json:3:3: "},
		{"type error", "{\n  // c\n  \"model\": 5\n}", "", "s.json:3:12: "},
		{"type error in a string", "{\"models\": \"not a list\"}", "", "s.json:1:12: "},
		{"comment not closed", "{\"model\": \"m\" /* x", "", "s.json:1:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c Config
			err := decodeSettings("s.json", []byte(tt.text), env, &c)
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("err = %v, want prefix %q", err, tt.err)
				}
				return
			}
			if err != nil || c.Model != tt.want {
				t.Errorf("model %q, err %v; want %q", c.Model, err, tt.want)
			}
		})
	}
}

// TestLoadNamesFileLineColumn checks the error a user sees for a broken
// settings file.
func TestLoadNamesFileLineColumn(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, ".config", "companion", "settings.json")
	write(t, path, "{\n  \"model\": \"m\",\n  \"models\": [1,]\n}\n")
	_, err := Load(envFrom(map[string]string{"HOME": home}))
	if err == nil || !strings.Contains(err.Error(), path+":3:14: ") {
		t.Errorf("err = %v, want %s:3:14", err, path)
	}
	root := t.TempDir()
	write(t, filepath.Join(root, ".mcp.json"), "{\"mcpServers\": {\n\"x\": {\"command\": }}}")
	if _, err := ReadProjectFile(root); err == nil || !strings.Contains(err.Error(), ".mcp.json:2:18: ") {
		t.Errorf("project err = %v", err)
	}
}

// TestGeminiSettingsWarning: a damaged ~/.gemini/settings.json is skipped
// with a warning naming where, not silently.
func TestGeminiSettingsWarning(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".gemini", "settings.json"), "{\"model\": }")
	c, err := Load(envFrom(map[string]string{"HOME": home}))
	if err != nil || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "settings.json:1:11") {
		t.Errorf("warnings %q, err %v", c.Warnings, err)
	}
}

func TestDotEnv(t *testing.T) {
	got := parseDotEnv([]byte("# c\nA=1\nexport B = two words # note\nC='x # y' # z\nD=\"l1\\nl2\"\nbad line\n=nokey\n"))
	want := map[string]string{"A": "1", "B": "two words", "C": "x # y", "D": "l1\nl2"}
	if len(got) != len(want) {
		t.Errorf("got %q", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

// TestLoadReadsNoProject: what an untrusted workspace has is never
// read, so none of it (not its .env either) reaches the configuration.
// SessionConfig (host) skips ReadProjectFile there; Load alone reads no
// project file.
func TestLoadReadsNoProject(t *testing.T) {
	project := copyTree(t, "testdata/layers/project")
	t.Chdir(project)
	c, err := Load(envFrom(map[string]string{"HOME": t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	if c.APIKey != "" || c.Model != DefaultModel || len(c.ProjectMCPServers) != 0 {
		t.Errorf("Load read the working directory's project: %+v", c)
	}
}

func TestEditKeepsComments(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	write(t, path, "{\n  // my model\n  \"model\": \"m\", // pinned\n  \"apiKey\": \"${KEY}\",\n}\n")
	if err := AddMCPServer(path, "db", MCPServer{Command: "node"}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	for _, want := range []string{"// my model", "// pinned", `"${KEY}"`, `"db"`, `"node"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("%q lost:\n%s", want, data)
		}
	}
	if err := RemoveMCPServer(path, "db"); err != nil {
		t.Fatal(err)
	}
	servers, _, err := ListMCPServers(path)
	if err != nil || len(servers) != 0 {
		t.Errorf("servers %v err %v", servers, err)
	}
}

// TestFlagsStayOverProject: re-laying the environment over the project's
// settings touches only what those could change, so a flag that beat an
// environment variable in Load (here --script over COMPANION_SCRIPT)
// still wins.
func TestFlagsStayOverProject(t *testing.T) {
	c, _, _ := layered(t, map[string]string{"COMPANION_SCRIPT": "env.json"}, "", true)
	if c.Script != "env.json" {
		t.Fatalf("script %q", c.Script)
	}
	home, project := copyTree(t, "testdata/layers/home"), copyTree(t, "testdata/layers/project")
	base, err := Load(envFrom(map[string]string{"HOME": home, "COMPANION_SCRIPT": "env.json"}))
	if err != nil {
		t.Fatal(err)
	}
	base.Script = "flag.json" // as internal/cli.LoadConfig applies --script
	f, err := ReadProjectFile(project)
	if err != nil {
		t.Fatal(err)
	}
	if got := base.ApplyProject(f); got.Script != "flag.json" {
		t.Errorf("script %q, want the flag's", got.Script)
	}
}
