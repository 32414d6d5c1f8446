package agent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"companion/agent/skills"

	"gopkg.in/yaml.v3"
)

// AgentDef is a subagent: a named helper with its own system prompt, tool
// set, model and limits, defined in a markdown file with YAML front matter
// under .companion/agents/ (project) or the user config directory.
type AgentDef struct {
	Name        string        `yaml:"name"`
	Description string        `yaml:"description"`
	Tools       []string      `yaml:"tools"`
	Model       string        `yaml:"model"`
	MaxTurns    int           `yaml:"max_turns"`
	Timeout     time.Duration `yaml:"-"`
	TimeoutText string        `yaml:"timeout"`
	// Prompt is the file's body: the subagent's system prompt.
	Prompt string `yaml:"-"`
	Path   string `yaml:"-"`
}

// LoadAgents reads agent definitions from the user directory, then the
// project's (which win on a name clash); an empty projectRoot reads no
// project (an untrusted workspace). Broken files are reported, not fatal.
func LoadAgents(projectRoot, userDir string) ([]AgentDef, []error) {
	var folders []AgentFolder
	if userDir != "" {
		folders = append(folders, AgentFolder{Dir: filepath.Join(userDir, "agents")})
	}
	if projectRoot != "" {
		folders = append(folders, AgentFolder{Dir: filepath.Join(projectRoot, ".companion", "agents")})
	}
	return LoadAgentFolders(folders)
}

// readAgentFile reads the agent definition at path: its YAML front
// matter into front, and its body (the prompt) as returned.
func readAgentFile(path string, front any) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	yml, body, ok := skills.SplitFrontMatter(data)
	if !ok {
		return nil, fmt.Errorf("agent %s: no YAML front matter between --- lines", path)
	}
	if err := yaml.Unmarshal(yml, front); err != nil {
		return nil, fmt.Errorf("agent %s: %w", path, err)
	}
	return body, nil
}

// parseAgent reads one definition file.
func parseAgent(path string) (AgentDef, error) {
	var def AgentDef
	body, err := readAgentFile(path, &def)
	if err != nil {
		return AgentDef{}, err
	}
	if def.Name == "" {
		def.Name = strings.TrimSuffix(filepath.Base(path), ".md")
	}
	if def.Description == "" {
		return AgentDef{}, fmt.Errorf("agent %s: a description is required (the model picks agents by it)", path)
	}
	if def.TimeoutText != "" {
		if def.Timeout, err = time.ParseDuration(def.TimeoutText); err != nil {
			return AgentDef{}, fmt.Errorf("agent %s: timeout: %w", path, err)
		}
	}
	def.Prompt, def.Path = strings.TrimSpace(string(body)), path
	return def, nil
}

// errNoAgent is returned for a delegation to an unknown agent.
var errNoAgent = errors.New("no such agent")
