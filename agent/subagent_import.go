package agent

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Subagents written for Gemini CLI (.gemini/agents/*.md) and Claude Code
// (.claude/agents/*.md) are markdown files with YAML front matter like
// companion's; their fields map as follows:
//   - name, description: as they are (the name defaults to the file name);
//   - tools: a list or a comma-separated string; Claude Code's tool names
//     (Read, Edit, Bash, …) become companion's, other names stay as
//     written; no tools field means every tool;
//   - model: kept, except Claude Code's aliases (sonnet, opus, haiku,
//     inherit), which mean "the session's model";
//   - max_turns, and timeout or Gemini CLI's timeout_mins.
//
// Other fields (color, temperature, kind) are ignored.

// AgentFolder is a folder of subagent definitions.
type AgentFolder struct {
	Dir string
	// Foreign marks Gemini CLI's and Claude Code's folders, read with the
	// field mapping above.
	Foreign bool
}

// AgentFolders lists the definition folders, the one that wins last:
// home's .claude/agents and .gemini/agents, companion's userDir/agents,
// then, when projectRoot is set (a trusted workspace), the project's
// .claude/agents, .gemini/agents and .companion/agents.
func AgentFolders(projectRoot, userDir, home string) []AgentFolder {
	var out []AgentFolder
	foreign := func(base string) {
		out = append(out, AgentFolder{filepath.Join(base, ".claude", "agents"), true},
			AgentFolder{filepath.Join(base, ".gemini", "agents"), true})
	}
	if home != "" {
		foreign(home)
	}
	if userDir != "" {
		out = append(out, AgentFolder{Dir: filepath.Join(userDir, "agents")})
	}
	if projectRoot != "" {
		foreign(projectRoot)
		out = append(out, AgentFolder{Dir: filepath.Join(projectRoot, ".companion", "agents")})
	}
	return out
}

// LoadAgentFolders reads the definitions in folders, a later folder's
// replacing an earlier one's of the same name, sorted by name. Broken
// files are reported, not fatal.
func LoadAgentFolders(folders []AgentFolder) ([]AgentDef, []error) {
	byName := map[string]AgentDef{}
	var errs []error
	for _, f := range folders {
		paths, _ := filepath.Glob(filepath.Join(f.Dir, "*.md"))
		for _, p := range paths {
			parse := parseAgent
			if f.Foreign {
				parse = parseForeignAgent
			}
			def, err := parse(p)
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

// foreignAgent is the front matter of a Gemini CLI or Claude Code
// subagent.
type foreignAgent struct {
	Name        string    `yaml:"name"`
	Description string    `yaml:"description"`
	Tools       yaml.Node `yaml:"tools"`
	Model       string    `yaml:"model"`
	MaxTurns    int       `yaml:"max_turns"`
	Timeout     string    `yaml:"timeout"`
	TimeoutMins float64   `yaml:"timeout_mins"`
}

// parseForeignAgent reads a Gemini CLI or Claude Code definition file.
func parseForeignAgent(path string) (AgentDef, error) {
	var fa foreignAgent
	body, err := readAgentFile(path, &fa)
	if err != nil {
		return AgentDef{}, err
	}
	def := AgentDef{Name: fa.Name, Description: fa.Description, MaxTurns: fa.MaxTurns, Model: fa.Model,
		Prompt: strings.TrimSpace(string(body)), Path: path}
	if def.Name == "" {
		def.Name = strings.TrimSuffix(filepath.Base(path), ".md")
	}
	if def.Description == "" {
		return AgentDef{}, fmt.Errorf("agent %s: a description is required (the model picks agents by it)", path)
	}
	switch strings.ToLower(def.Model) {
	case "sonnet", "opus", "haiku", "inherit":
		def.Model = ""
	}
	if def.Tools, err = foreignTools(fa.Tools); err != nil {
		return AgentDef{}, fmt.Errorf("agent %s: tools: %w", path, err)
	}
	switch {
	case fa.Timeout != "":
		if def.Timeout, err = time.ParseDuration(fa.Timeout); err != nil {
			return AgentDef{}, fmt.Errorf("agent %s: timeout: %w", path, err)
		}
	case fa.TimeoutMins > 0:
		def.Timeout = time.Duration(fa.TimeoutMins * float64(time.Minute))
	}
	return def, nil
}

// foreignTools reads a tools field (a list, or names separated by commas)
// as companion's tool names.
func foreignTools(n yaml.Node) ([]string, error) {
	var names []string
	switch n.Kind {
	case 0:
		return nil, nil
	case yaml.ScalarNode:
		names = strings.Split(n.Value, ",")
	case yaml.SequenceNode:
		if err := n.Decode(&names); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("want a list or a comma-separated string")
	}
	var out []string
	for _, name := range names {
		if name = strings.TrimSpace(name); name != "" {
			out = append(out, companionTool(name))
		}
	}
	return out, nil
}

// companionTool is companion's name for a Claude Code or older Gemini CLI
// tool name; other names are returned as they are.
func companionTool(name string) string {
	switch name {
	case "Read":
		return "read_file"
	case "Write":
		return "write_file"
	case "Edit", "MultiEdit":
		return "replace"
	case "Bash":
		return "run_shell_command"
	case "Grep", "search_file_content":
		return "grep"
	case "Glob":
		return "glob"
	case "LS":
		return "list_directory"
	case "WebFetch":
		return "web_fetch"
	case "TodoWrite":
		return "write_todos"
	}
	return name
}
