package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	// ShellEnvironment adjusts which variables shell commands inherit.
	ShellEnvironment ShellEnvironment `json:"shellEnvironment,omitzero"`
	// Sandbox runs shell commands under a sandbox: "off" (or ""),
	// "read-only" or "workspace-write" (tools/sandbox). Only the user's
	// settings and the --sandbox flag set it: a project's cannot.
	Sandbox string `json:"sandbox,omitempty"`
	// SandboxNetwork lets sandboxed commands reach the network.
	SandboxNetwork bool `json:"sandboxNetwork,omitempty"`
	// StateDir holds sessions, checkpoints and command logs; "" means
	// $XDG_STATE_HOME/companion (or ~/.local/state/companion).
	StateDir string `json:"stateDir,omitempty"`
	// MemoryFileNames are the instruction files read from the user config
	// directory and the project (default AGENTS.md, GEMINI.md).
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
	// LogFile receives logs; "" means stderr.
	LogFile  string `json:"logFile,omitempty"`
	LogLevel string `json:"logLevel,omitempty"`

	// SettingsPath is the user settings file that was read (or would be).
	SettingsPath string `json:"-"`
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
// companion's config directory, then Gemini CLI's (~/.gemini).
func (c *Config) MemoryDirs(getenv func(string) string) []string {
	var dirs []string
	if d := c.ConfigDir(); d != "" {
		dirs = append(dirs, d)
	}
	if home := getenv("HOME"); home != "" {
		dirs = append(dirs, filepath.Join(home, ".gemini"))
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

// Load reads the user settings file and overlays the environment. getenv is
// os.Getenv outside tests.
func Load(getenv func(string) string) (Config, error) {
	var c Config
	c.SettingsPath = settingsPath(getenv)
	if err := readSettings(c.SettingsPath, &c); err != nil {
		return c, err
	}
	c.FolderTrust.Trusted = append(c.FolderTrust.Trusted, c.TrustedFolders()...)
	if c.Model == "" || len(c.MCPServers) == 0 {
		model, servers := geminiCLISettings(getenv)
		if c.Model == "" {
			c.Model = model
		}
		if len(c.MCPServers) == 0 {
			c.MCPServers = servers
		}
	}
	applyEnv(&c, getenv)
	if c.Model == "" {
		c.Model = DefaultModel
	}
	if len(c.Models) == 0 {
		c.Models = DefaultModels()
	}
	return c, nil
}

// settingsPath is $COMPANION_SETTINGS, else settings.json in the user
// config directory ($XDG_CONFIG_HOME/companion or ~/.config/companion).
func settingsPath(getenv func(string) string) string {
	if p := getenv("COMPANION_SETTINGS"); p != "" {
		return p
	}
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "companion", "settings.json")
}

func readSettings(path string, c *Config) error {
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
	if err := json.Unmarshal(data, c); err != nil {
		return fmt.Errorf("settings file %s is not valid JSON: %w", path, err)
	}
	return nil
}

// applyEnv lets the environment override settings, with the variable names
// Gemini CLI users already have.
func applyEnv(c *Config, getenv func(string) string) {
	for _, k := range []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"} {
		if v := getenv(k); v != "" {
			c.APIKey = v
			break
		}
	}
	if v := strings.ToLower(getenv("GOOGLE_GENAI_USE_VERTEXAI")); v == "true" || v == "1" {
		c.VertexAI = true
	}
	set := func(dst *string, key string) {
		if v := getenv(key); v != "" {
			*dst = v
		}
	}
	set(&c.Project, "GOOGLE_CLOUD_PROJECT")
	set(&c.Location, "GOOGLE_CLOUD_LOCATION")
	set(&c.BaseURL, "GOOGLE_GEMINI_BASE_URL")
	set(&c.Model, "GEMINI_MODEL")
	set(&c.Script, "COMPANION_SCRIPT")
	set(&c.LogFile, "COMPANION_LOG_FILE")
	set(&c.LogLevel, "COMPANION_LOG_LEVEL")
	set(&c.StateDir, "COMPANION_STATE_DIR")
	set(&c.Provider, "COMPANION_PROVIDER")
	set(&c.OpenAI.APIKey, "OPENAI_API_KEY")
	set(&c.OpenAI.BaseURL, "OPENAI_BASE_URL")
	if c.StateDir == "" {
		c.StateDir = stateDir(getenv)
	}
}

// stateDir is $XDG_STATE_HOME/companion, else ~/.local/state/companion.
func stateDir(getenv func(string) string) string {
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "companion")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "state", "companion")
	}
	return filepath.Join(os.TempDir(), "companion-state")
}

// geminiCLISettings reads the model ("model": "name" or {"name": ...})
// and the MCP servers from Gemini CLI's ~/.gemini/settings.json, so its
// users keep their choices.
func geminiCLISettings(getenv func(string) string) (string, json.RawMessage) {
	home := getenv("HOME")
	if home == "" {
		return "", nil
	}
	data, err := os.ReadFile(filepath.Join(home, ".gemini", "settings.json"))
	if err != nil {
		return "", nil
	}
	var s struct {
		Model      json.RawMessage `json:"model"`
		MCPServers json.RawMessage `json:"mcpServers"`
	}
	if json.Unmarshal(data, &s) != nil {
		return "", nil
	}
	var name string
	if json.Unmarshal(s.Model, &name) != nil {
		var obj struct {
			Name string `json:"name"`
		}
		json.Unmarshal(s.Model, &obj)
		name = obj.Name
	}
	return name, s.MCPServers
}
