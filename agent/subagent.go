package agent

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

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
	byName := map[string]AgentDef{}
	var errs []error
	var dirs []string
	if userDir != "" {
		dirs = append(dirs, filepath.Join(userDir, "agents"))
	}
	if projectRoot != "" {
		dirs = append(dirs, filepath.Join(projectRoot, ".companion", "agents"))
	}
	for _, dir := range dirs {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.md"))
		for _, p := range paths {
			def, err := parseAgent(p)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			byName[def.Name] = def
		}
	}
	defs := make([]AgentDef, 0, len(byName))
	for _, d := range byName {
		defs = append(defs, d)
	}
	sort.Slice(defs, func(i, j int) bool { return defs[i].Name < defs[j].Name })
	return defs, errs
}

// parseAgent reads one definition file.
func parseAgent(path string) (AgentDef, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return AgentDef{}, err
	}
	front, body, ok := splitFrontMatter(data)
	if !ok {
		return AgentDef{}, fmt.Errorf("agent %s: no YAML front matter between --- lines", path)
	}
	var def AgentDef
	if err := yaml.Unmarshal(front, &def); err != nil {
		return AgentDef{}, fmt.Errorf("agent %s: %w", path, err)
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

// splitFrontMatter separates "---\nyaml\n---\nbody".
func splitFrontMatter(data []byte) (front, body []byte, ok bool) {
	data = bytes.TrimLeft(data, "\ufeff \t\r\n")
	if !bytes.HasPrefix(data, []byte("---")) {
		return nil, nil, false
	}
	rest := data[3:]
	end := bytes.Index(rest, []byte("\n---"))
	if end < 0 {
		return nil, nil, false
	}
	body = rest[end+4:]
	if i := bytes.IndexByte(body, '\n'); i >= 0 {
		body = body[i+1:]
	} else {
		body = nil
	}
	return rest[:end], body, true
}

// errNoAgent is returned for a delegation to an unknown agent.
var errNoAgent = errors.New("no such agent")
