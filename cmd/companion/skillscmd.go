package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"companion/agent/skills"
	"companion/config"
)

const skillsUsage = `Usage:
  companion skills list [--json] [DIR]   list the skills a session in DIR (default: the current directory) finds

A skill is a folder holding a SKILL.md (YAML front matter with name and description, then instructions)
and any resource files. Project skills live in .companion/skills/, .gemini/skills/, .claude/skills/ or
.agents/skills/ of the project, and are only loaded in a trusted folder; your own live in skills/ of the
companion config folder and in ~/.gemini/skills/, ~/.claude/skills/ and ~/.agents/skills/. A project skill
hides one of yours with the same name.
`

// skillsListing is what `companion skills list --json` prints.
type skillsListing struct {
	Skills   []skillJSON   `json:"skills"`
	Problems []problemJSON `json:"problems"`
	// ProjectSkipped is set when the folder is not trusted, so its
	// project skills were not looked for.
	ProjectSkipped bool `json:"projectSkipped"`
}

type skillJSON struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	Source       skills.Source   `json:"source"`
	Path         string          `json:"path"`
	AllowedTools []string        `json:"allowedTools,omitempty"`
	Shadowed     []skills.Hidden `json:"shadowed,omitempty"`
}

type problemJSON struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// runSkills lists the skills a session in a folder would find.
func runSkills(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 || args[0] != "list" {
		fmt.Fprint(stderr, skillsUsage)
		return 2
	}
	fs := flag.NewFlagSet("companion skills list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, skillsUsage) }
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 1 {
		fmt.Fprint(stderr, skillsUsage)
		return 2
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	dir, err := filepath.Abs(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	trusted := cfg.FolderTrust.Trusts(dir)
	found, problems := skills.Discover(skills.Locations([]string{dir}, trusted, cfg.ConfigDir(), getenv("HOME")))
	if *asJSON {
		return printSkillsJSON(stdout, stderr, found, problems, !trusted)
	}
	printSkills(stdout, stderr, found, problems, !trusted)
	return 0
}

// printSkillsJSON prints the listing as one JSON object.
func printSkillsJSON(stdout, stderr io.Writer, found []skills.Skill, problems []skills.Problem, skipped bool) int {
	out := skillsListing{Skills: []skillJSON{}, Problems: []problemJSON{}, ProjectSkipped: skipped}
	for _, sk := range found {
		out.Skills = append(out.Skills, skillJSON{Name: sk.Name, Description: sk.Description, Source: sk.Source,
			Path: sk.Path, AllowedTools: sk.AllowedTools, Shadowed: sk.Shadowed})
	}
	for _, p := range problems {
		out.Problems = append(out.Problems, problemJSON{Path: p.Path, Error: p.Err.Error()})
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	return 0
}

// printSkills prints the listing for people: the skills on stdout, what
// was skipped on stderr.
func printSkills(stdout, stderr io.Writer, found []skills.Skill, problems []skills.Problem, skipped bool) {
	if len(found) == 0 {
		fmt.Fprintln(stdout, "no skills found")
	}
	for _, sk := range found {
		fmt.Fprintf(stdout, "%s (%s) %s\n    %s\n", sk.Name, sk.Source, sk.Path, sk.Description)
		if len(sk.AllowedTools) > 0 {
			fmt.Fprintf(stdout, "    allowed-tools: %s (shown, never granted)\n", strings.Join(sk.AllowedTools, ", "))
		}
		for _, h := range sk.Shadowed {
			fmt.Fprintf(stdout, "    hides the %s skill in %s\n", h.Source, h.Path)
		}
	}
	for _, p := range problems {
		fmt.Fprintf(stderr, "skipped %s\n", p)
	}
	if skipped {
		fmt.Fprintln(stderr, "note: this folder is not trusted, so its project skills are not listed (see companion trust)")
	}
}
