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
	// ApprovalMode is the approval mode sessions start in: default,
	// auto_edit, plan or yolo ("" is default); the flags override it.
	ApprovalMode string `json:"approvalMode,omitempty"`
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
	// LSP are the user's language servers by name, in the shape Zed and
	// OpenCode use (tools/lsp parses them and adds its defaults).
	LSP json.RawMessage `json:"lsp,omitempty"`
	// ProjectLSP are the project's, set by WithProject in trusted folders.
	ProjectLSP json.RawMessage `json:"-"`
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
	// Unread names, one line per file, the keys of Gemini CLI's and
	// Claude Code's settings files that companion does not support.
	Unread []string `json:"-"`
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

// Permissions are rules in "tool" or "tool(pattern)" form, in
// companion's syntax or Claude Code's (tools/policy reads both).
type Permissions struct {
	Allow []string `json:"allow,omitempty"`
	Ask   []string `json:"ask,omitempty"`
	Deny  []string `json:"deny,omitempty"`
	// Only, when set, are the only calls that may run at all (Gemini
	// CLI's tools.core): a call no rule of it covers is denied.
	Only []string `json:"only,omitempty"`
	// Origins names the file and line each rule was read from
	// ("path:line"), for errors; see noteOrigins.
	Origins map[string]string `json:"-"`
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
	c.fillFromForeign(getenv)
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

// fillFromForeign takes from Gemini CLI's ~/.gemini/settings.json, then
// Claude Code's ~/.claude/settings.json, what companion's settings leave
// unset (the model, MCP servers, memory file names, hooks, approval
// mode) and adds their permission rules to companion's.
func (c *Config) fillFromForeign(getenv func(string) string) {
	home := getenv("HOME")
	if home == "" {
		return
	}
	for _, src := range []struct {
		path   string
		decode func(string, []byte, func(string) string) (foreign, error)
	}{{GeminiUserSettingsPath(home), decodeGemini}, {ClaudeUserSettingsPath(home), decodeClaude}} {
		data, err := readOptional(src.path)
		if err == nil && data != nil {
			var f foreign
			if f, err = src.decode(src.path, data, getenv); err == nil {
				c.fillFrom(f, src.path)
			}
		}
		if err != nil {
			c.Warnings = append(c.Warnings, "settings skipped: "+err.Error())
		}
	}
}

// fillFrom lays one foreign user settings file, read from path, under c.
func (c *Config) fillFrom(f foreign, path string) {
	if c.Model == "" && f.Model != "" {
		c.Model, c.Sources["model"] = f.Model, path
	}
	if len(c.MCPServers) == 0 && !empty(f.MCPServers) {
		c.MCPServers, c.Sources["mcpServers"] = f.MCPServers, path
	}
	if len(c.MemoryFileNames) == 0 && len(f.MemoryFileNames) > 0 {
		c.MemoryFileNames, c.Sources["memoryFileNames"] = f.MemoryFileNames, path
	}
	if len(c.Hooks) == 0 && !empty(f.Hooks) {
		c.Hooks, c.Sources["hooks"] = f.Hooks, path
	}
	if c.ApprovalMode == "" && f.Mode != "" {
		c.ApprovalMode, c.Sources["approvalMode"] = f.Mode, path
	}
	if !f.Permissions.empty() {
		c.Permissions = c.Permissions.add(f.Permissions)
		c.Sources["permissions"] = joinSource(c.Sources["permissions"], path)
	}
	if note := unreadNote(path, f.Unread); note != "" {
		c.Unread = append(c.Unread, note)
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
	c.Permissions.noteOrigins(path, data)
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
