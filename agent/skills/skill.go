package skills

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Limits of a skill's front matter, as the Agent Skills format sets them.
const (
	MaxNameLen        = 64
	MaxDescriptionLen = 1024
)

// Source says whose folder a skill came from.
type Source string

// Sources of skills. A project skill wins over a user skill of the same
// name.
const (
	Project Source = "project"
	User    Source = "user"
)

// Skill is one discovered skill. Its instructions (the body of SKILL.md)
// are read only when it is activated.
type Skill struct {
	Name        string
	Description string
	// AllowedTools is the skill's allowed-tools, as written. companion
	// shows it and grants nothing by it: every call is still decided by the
	// permission policy.
	AllowedTools []string
	Source       Source
	// Dir is the skill's folder (absolute, symlinks resolved) and Path its
	// SKILL.md.
	Dir, Path string
	// Shadowed lists the skills of the same name that this one hides.
	Shadowed []Hidden
}

// Hidden is a skill hidden by another of the same name: where its
// SKILL.md is, and whose it is.
type Hidden struct {
	Path   string `json:"path"`
	Source Source `json:"source"`
}

// Summary is what the model is told about a skill before it is activated.
type Summary struct {
	Name        string
	Description string
}

// frontMatter is the part of SKILL.md's front matter companion reads;
// other fields (license, metadata) are ignored.
type frontMatter struct {
	Name         string    `yaml:"name"`
	Description  string    `yaml:"description"`
	AllowedTools yaml.Node `yaml:"allowed-tools"`
}

// namePattern is a skill name: lowercase letters and digits in words
// joined by single hyphens.
var namePattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// errNoFrontMatter is returned for a SKILL.md that does not start with
// front matter between --- lines.
var errNoFrontMatter = errors.New("no YAML front matter between --- lines at the top")

// parse reads SKILL.md's content: the checked front matter and the body.
func parse(data []byte) (Skill, string, error) {
	front, body, ok := SplitFrontMatter(data)
	if !ok {
		return Skill{}, "", errNoFrontMatter
	}
	var fm frontMatter
	if err := yaml.Unmarshal(front, &fm); err != nil {
		return Skill{}, "", fmt.Errorf("front matter: %w", err)
	}
	sk := Skill{Name: strings.TrimSpace(fm.Name), Description: strings.TrimSpace(fm.Description)}
	if err := validate(sk); err != nil {
		return Skill{}, "", err
	}
	tools, err := allowedTools(fm.AllowedTools)
	if err != nil {
		return Skill{}, "", err
	}
	sk.AllowedTools = tools
	return sk, strings.TrimSpace(string(body)), nil
}

// validate checks the name and description the format requires.
func validate(sk Skill) error {
	switch n := utf8.RuneCountInString(sk.Name); {
	case n == 0:
		return errors.New("name is required")
	case n > MaxNameLen:
		return fmt.Errorf("name is %d characters long; at most %d are allowed", n, MaxNameLen)
	case !namePattern.MatchString(sk.Name):
		return fmt.Errorf("name %q must be lowercase letters and digits joined by single hyphens", sk.Name)
	}
	switch n := utf8.RuneCountInString(sk.Description); {
	case n == 0:
		return errors.New("description is required (the model picks skills by it)")
	case n > MaxDescriptionLen:
		return fmt.Errorf("description is %d characters long; at most %d are allowed", n, MaxDescriptionLen)
	}
	return nil
}

// allowedTools reads allowed-tools, written either as a list or as one
// string of names separated by spaces or commas.
func allowedTools(n yaml.Node) ([]string, error) {
	switch n.Kind {
	case 0:
		return nil, nil
	case yaml.ScalarNode:
		return strings.FieldsFunc(n.Value, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }), nil
	case yaml.SequenceNode:
		var out []string
		if err := n.Decode(&out); err != nil {
			return nil, fmt.Errorf("allowed-tools: %w", err)
		}
		return out, nil
	}
	return nil, errors.New("allowed-tools must be a list or a string of tool names")
}

// SplitFrontMatter separates "---\nyaml\n---\nbody", the shape of a
// SKILL.md and of a subagent's definition file; ok is false without it.
func SplitFrontMatter(data []byte) (front, body []byte, ok bool) {
	data = bytes.TrimLeft(data, "\ufeff \t\r\n")
	rest, found := bytes.CutPrefix(data, []byte("---"))
	if !found {
		return nil, nil, false
	}
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
