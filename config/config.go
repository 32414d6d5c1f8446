package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Providers of models.
const (
	ProviderGemini = "gemini"
	ProviderOpenAI = "openai"
)

// DefaultModel is the model used when nothing else is set.
const DefaultModel = "gemini-2.5-pro"

// DefaultModels are offered in the editor's model picker.
func DefaultModels() []string {
	return []string{"gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite", "gemini-3-pro-preview"}
}

// Config is everything companion reads from outside before it starts.
type Config struct {
	// Model is the default model; Models are offered for switching.
	Model  string   `json:"model,omitempty"`
	Models []string `json:"models,omitempty"`
	// FallbackModel takes over when the model keeps failing for quota.
	FallbackModel string `json:"fallbackModel,omitempty"`
	// Provider is "gemini" (the default) or "openai" (any OpenAI-compatible
	// server: OpenAI, Ollama, vLLM, llama.cpp, OpenRouter).
	Provider string `json:"provider,omitempty"`
	// OpenAI configures the OpenAI-compatible provider.
	OpenAI OpenAI `json:"openai,omitzero"`
	// TextProtocol describes tools in the prompt and parses calls from the
	// model's text, for models without native function calling.
	TextProtocol bool `json:"textProtocol,omitempty"`
	// APIKey is the Gemini API key.
	APIKey string `json:"apiKey,omitempty"`
	// VertexAI selects Vertex AI with Project and Location.
	VertexAI bool   `json:"vertexAI,omitempty"`
	Project  string `json:"project,omitempty"`
	Location string `json:"location,omitempty"`
	// BaseURL overrides the Gemini API endpoint.
	BaseURL string `json:"baseUrl,omitempty"`
	// Script runs a scripted model from this file instead of a real one;
	// "demo" picks the built-in demo script.
	Script string `json:"script,omitempty"`
	// Retry tunes how failed model requests are retried.
	Retry Retry `json:"retry,omitzero"`
	// Permissions are allow / ask / deny rules such as
	// "run_shell_command(git status)" or "edit(src/**)".
	Permissions Permissions `json:"permissions,omitzero"`
	// FolderTrust, when enabled, makes folders outside Trusted untrusted:
	// nothing runs there without asking and project settings are ignored.
	FolderTrust FolderTrust `json:"folderTrust,omitzero"`
	// AllowPrivateFetch lets web_fetch reach private and loopback addresses.
	AllowPrivateFetch bool `json:"allowPrivateFetch,omitempty"`
	// WebSearch configures google_web_search; only the user's settings set
	// it (websearch.go).
	WebSearch WebSearch `json:"webSearch,omitzero"`
	// ShellEnvironment adjusts which variables shell commands inherit.
	ShellEnvironment ShellEnvironment `json:"shellEnvironment,omitzero"`
	// Sandbox runs shell commands under a sandbox: "off" (or ""),
	// "read-only" or "workspace-write" (tools/sandbox). Only the user's
	// settings and the --sandbox flag set it: a project's cannot.
	Sandbox string `json:"sandbox,omitempty"`
	// SandboxNetwork lets sandboxed commands reach the network.
	SandboxNetwork bool `json:"sandboxNetwork,omitempty"`
	// HooksSandboxNetwork, when false, cuts sandboxed hook commands off
	// the network; hooks have network by default. Like Sandbox, only the
	// user's settings set it. Hooks and stdio MCP servers run in the same
	// sandbox mode as shell commands; a server opts out with its own
	// "sandbox": false, honoured in the user's settings only (see
	// MCPServer).
	HooksSandboxNetwork *bool `json:"hooksSandboxNetwork,omitempty"`
	// Shell is the program run_shell_command runs lines with on this
	// machine: "" means bash (else sh), and cmd.exe on Windows; "pwsh" or
	// "powershell" runs PowerShell. Lines for shells other than bash and
	// sh cannot be read by the permission policy, so each is asked about.
	// Only the user's settings set it.
	Shell string `json:"shell,omitempty"`
	// StateDir holds sessions, checkpoints and command logs; "" means
	// $XDG_STATE_HOME/companion (or ~/.local/state/companion;
	// %LOCALAPPDATA%\companion on Windows).
	StateDir string `json:"stateDir,omitempty"`
	// MemoryFileNames are the instruction files read from the user config
	// directory and the project (default AGENTS.md, GEMINI.md, CLAUDE.md).
	MemoryFileNames []string `json:"memoryFileNames,omitempty"`
	// CompressionThreshold is the share of the context window at which
	// older history is summarised (default 0.5).
	CompressionThreshold float64 `json:"compressionThreshold,omitempty"`
	// MCPServers are the user's MCP servers in Gemini CLI's settings shape
	// (tools/mcp parses them); Gemini CLI's own are used when unset.
	MCPServers json.RawMessage `json:"mcpServers,omitempty"`
	// ProjectMCPServers are the project's, set by WithProject.
	ProjectMCPServers json.RawMessage `json:"-"`
	// Hooks are the user's hook commands (agent/hooks parses them).
	Hooks json.RawMessage `json:"hooks,omitempty"`
	// ProjectHooks are the project's, set by WithProject in trusted folders.
	ProjectHooks json.RawMessage `json:"-"`
	// PendingProject, set by ApplyProject, is a project settings file
	// whose powers were held back until the user accepts it; nil when none.
	PendingProject *PendingSettings `json:"-"`
	// MaxTurnRequests bounds model requests per prompt.
	MaxTurnRequests int `json:"maxTurnRequests,omitempty"`
	// Telemetry is the OpenTelemetry export, off unless enabled; only the
	// user's settings, the environment and flags set it (telemetry.go).
	Telemetry Telemetry `json:"telemetry,omitzero"`
	// SystemPrompt adjusts the built-in system prompt; only the user's
	// settings set it.
	SystemPrompt SystemPrompt `json:"systemPrompt,omitzero"`
	// LogFile receives logs; "" means stderr.
	LogFile  string `json:"logFile,omitempty"`
	LogLevel string `json:"logLevel,omitempty"`

	// SettingsPath is the user settings file that was read (or would be).
	SettingsPath string `json:"-"`
	// Sources says where each top-level setting came from: a settings
	// file's path, "env NAME", a .env file, "default" (see Layers).
	Sources map[string]string `json:"-"`
	// Warnings are problems that did not stop loading, such as a damaged
	// ~/.gemini/settings.json, one sentence each.
	Warnings []string `json:"-"`
	// loaded is how Load left the configuration, to tell the flags'
	// changes apart and to lay the project's .env under the environment.
	loaded *loadState
}

// loadState is what Load saw.
type loadState struct {
	model    string
	maxTurns int
	env      envLayer
}

// SystemPrompt is the "systemPrompt" setting.
type SystemPrompt struct {
	// Disable names parts of the system prompt to leave out, such as
	// "git" or "listing" (agent.PromptParts lists them).
	Disable []string `json:"disable,omitempty"`
}

// OpenAI is an OpenAI-compatible endpoint.
type OpenAI struct {
	BaseURL       string            `json:"baseUrl,omitempty"`
	APIKey        string            `json:"apiKey,omitempty"`
	ContextWindow int               `json:"contextWindow,omitempty"`
	Headers       map[string]string `json:"headers,omitempty"`
}

// Permissions are rules in "tool" or "tool(pattern)" form.
type Permissions struct {
	Allow []string `json:"allow,omitempty"`
	Ask   []string `json:"ask,omitempty"`
	Deny  []string `json:"deny,omitempty"`
}

// FolderTrust lists the folders the user trusts: the settings' list, then
// the folders trusted with `companion trust` (Config.TrustFolder).
type FolderTrust struct {
	Enabled bool     `json:"enabled,omitempty"`
	Trusted []string `json:"trusted,omitempty"`
}

// Trusts reports whether dir is trusted: always when folder trust is off,
// else when dir is inside one of the trusted folders.
func (f FolderTrust) Trusts(dir string) bool {
	if !f.Enabled {
		return true
	}
	for _, t := range f.Trusted {
		if rel, err := filepath.Rel(t, dir); err == nil && filepath.IsLocal(rel) {
			return true
		}
	}
	return false
}

// Retry tunes the model client's retries; zero fields keep the provider's
// defaults (5 attempts, backoff from 1 s up to 30 s).
type Retry struct {
	MaxAttempts int `json:"maxAttempts,omitempty"`
	BaseDelayMs int `json:"baseDelayMs,omitempty"`
	MaxDelayMs  int `json:"maxDelayMs,omitempty"`
}

// ConfigDir is the user config directory: where the settings file and
// the user's memory file live.
func (c *Config) ConfigDir() string {
	if c.SettingsPath == "" {
		return ""
	}
	return filepath.Dir(c.SettingsPath)
}

// MemoryDirs are the user directories memory files are read from:
// companion's config directory, then Gemini CLI's (~/.gemini) and Claude
// Code's (~/.claude).
func (c *Config) MemoryDirs(getenv func(string) string) []string {
	var dirs []string
	if d := c.ConfigDir(); d != "" {
		dirs = append(dirs, d)
	}
	if home := getenv("HOME"); home != "" {
		dirs = append(dirs, filepath.Join(home, ".gemini"), filepath.Join(home, ".claude"))
	}
	return dirs
}

// HasCredentials reports whether a model can be reached: an API key,
// Vertex AI, or a scripted model.
func (c *Config) HasCredentials() bool {
	if c.Provider == ProviderOpenAI {
		return c.OpenAI.APIKey != "" || c.OpenAI.BaseURL != "" || c.Script != ""
	}
	return c.APIKey != "" || c.VertexAI || c.Script != ""
}

// Load reads the user settings file (companion's, then Gemini CLI's for
// what companion's leaves unset) and overlays the environment and the
// user's .env file. getenv is os.Getenv outside tests. See Layers for the
// order of everything.
func Load(getenv func(string) string) (Config, error) {
	c := Config{Sources: map[string]string{}}
	c.SettingsPath = settingsPath(getenv)
	if err := readSettings(c.SettingsPath, &c, getenv); err != nil {
		return c, err
	}
	c.FolderTrust.Trusted = append(c.FolderTrust.Trusted, c.TrustedFolders()...)
	c.fillFromGemini(getenv)
	env := envLayer{getenv: getenv}
	if home, ok := readDotEnv(getenv("HOME"), nil); ok {
		env.files = append(env.files, home)
	}
	applyEnv(&c, env.lookup)
	if c.Model == "" {
		c.Model, c.Sources["model"] = DefaultModel, "default"
	}
	if len(c.Models) == 0 {
		c.Models = DefaultModels()
	}
	c.loaded = &loadState{model: c.Model, maxTurns: c.MaxTurnRequests, env: env}
	return c, nil
}

// fillFromGemini takes the model, MCP servers and memory file names from
// Gemini CLI's ~/.gemini/settings.json where companion's settings leave
// them unset.
func (c *Config) fillFromGemini(getenv func(string) string) {
	home := getenv("HOME")
	if home == "" {
		return
	}
	path := filepath.Join(home, ".gemini", "settings.json")
	g, err := readGeminiSettings(path, getenv)
	if err != nil {
		c.Warnings = append(c.Warnings, "Gemini CLI settings skipped: "+err.Error())
		return
	}
	if c.Model == "" && g.Model != "" {
		c.Model, c.Sources["model"] = g.Model, path
	}
	if len(c.MCPServers) == 0 && !empty(g.MCPServers) {
		c.MCPServers, c.Sources["mcpServers"] = g.MCPServers, path
	}
	if len(c.MemoryFileNames) == 0 && len(g.MemoryFileNames) > 0 {
		c.MemoryFileNames, c.Sources["memoryFileNames"] = g.MemoryFileNames, path
	}
}

// settingsPath is $COMPANION_SETTINGS, else settings.json in the user
// config directory ($XDG_CONFIG_HOME/companion, %APPDATA%\companion on
// Windows, or ~/.config/companion; see userConfigBase).
func settingsPath(getenv func(string) string) string {
	return settingsPathFor(getenv, runtime.GOOS)
}

// readSettings reads the user settings file at path into c, noting in
// c.Sources the settings it sets; a missing file sets nothing.
func readSettings(path string, c *Config, getenv func(string) string) error {
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read settings: %w", err)
	}
	if err := decodeSettings(path, data, getenv, c); err != nil {
		return fmt.Errorf("settings file %w", err)
	}
	noteKeys(c.Sources, data, path)
	return nil
}

// applyEnv lets the environment override settings, with the variable names
// Gemini CLI users already have. lookup returns a variable's value and
// where it came from, noted in c.Sources.
func applyEnv(c *Config, lookup func(string) (string, string)) {
	if c.Sources == nil {
		c.Sources = map[string]string{}
	}
	for _, k := range []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"} {
		if v, src := lookup(k); v != "" {
			c.APIKey, c.Sources["apiKey"] = v, src
			break
		}
	}
	if v, src := lookup("GOOGLE_GENAI_USE_VERTEXAI"); strings.EqualFold(v, "true") || v == "1" {
		c.VertexAI, c.Sources["vertexAI"] = true, src
	}
	for _, e := range []struct {
		dst       *string
		key, name string
	}{
		{&c.Project, "project", "GOOGLE_CLOUD_PROJECT"}, {&c.Location, "location", "GOOGLE_CLOUD_LOCATION"},
		{&c.BaseURL, "baseUrl", "GOOGLE_GEMINI_BASE_URL"}, {&c.Model, "model", "GEMINI_MODEL"},
		{&c.Script, "script", "COMPANION_SCRIPT"}, {&c.LogFile, "logFile", "COMPANION_LOG_FILE"},
		{&c.LogLevel, "logLevel", "COMPANION_LOG_LEVEL"}, {&c.StateDir, "stateDir", "COMPANION_STATE_DIR"},
		{&c.Provider, "provider", "COMPANION_PROVIDER"}, {&c.OpenAI.APIKey, "openai.apiKey", "OPENAI_API_KEY"},
		{&c.OpenAI.BaseURL, "openai.baseUrl", "OPENAI_BASE_URL"},
	} {
		if v, src := lookup(e.name); v != "" {
			*e.dst, c.Sources[e.key] = v, src
		}
	}
	applyTelemetryEnv(c, lookup)
	if c.StateDir == "" {
		c.StateDir = stateDir(func(k string) string { v, _ := lookup(k); return v })
	}
}

// stateDir is $XDG_STATE_HOME/companion, %LOCALAPPDATA%\companion on
// Windows, else ~/.local/state/companion (see userStateBase).
func stateDir(getenv func(string) string) string {
	return stateDirFor(getenv, runtime.GOOS)
}

// geminiSettings is what companion takes from a Gemini CLI settings file.
type geminiSettings struct {
	Model           string
	MCPServers      json.RawMessage
	MemoryFileNames []string
}

// readGeminiSettings reads a Gemini CLI settings file: the model
// ("model": "name" or {"name": …}), the MCP servers and the memory file
// names (context.fileName or the older contextFileName, a name or a
// list). A missing file is empty.
func readGeminiSettings(path string, getenv func(string) string) (geminiSettings, error) {
	var g geminiSettings
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return g, nil
	}
	if err != nil {
		return g, err
	}
	var s struct {
		Model           json.RawMessage `json:"model"`
		MCPServers      json.RawMessage `json:"mcpServers"`
		ContextFileName json.RawMessage `json:"contextFileName"`
		Context         struct {
			FileName json.RawMessage `json:"fileName"`
		} `json:"context"`
	}
	if err := decodeSettings(path, data, getenv, &s); err != nil {
		return g, err
	}
	g.MCPServers = s.MCPServers
	if json.Unmarshal(s.Model, &g.Model) != nil {
		var obj struct {
			Name string `json:"name"`
		}
		json.Unmarshal(s.Model, &obj)
		g.Model = obj.Name
	}
	for _, raw := range []json.RawMessage{s.Context.FileName, s.ContextFileName} {
		if len(g.MemoryFileNames) == 0 && json.Unmarshal(raw, &g.MemoryFileNames) != nil {
			var one string
			if json.Unmarshal(raw, &one) == nil && one != "" {
				g.MemoryFileNames = []string{one}
			}
		}
	}
	return g, nil
}

// noteKeys records path as the source of each top-level key of the
// settings text data.
func noteKeys(sources map[string]string, data []byte, path string) {
	var top map[string]json.RawMessage
	if decodeSettings(path, data, nil, &top) != nil {
		return
	}
	for k := range top {
		sources[k] = path
	}
}
