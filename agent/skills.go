package agent

import (
	"fmt"
	"slices"
	"strings"

	"companion/agent/skills"
	"companion/agent/slash"
)

// skillCommand runs /name args for the skill called name: the user's own
// request activates it (no question asked) and the prompt is the skill's
// instructions followed by args. A project skill's instructions are framed
// as data; the user's request outside the frame is what directs the model.
// ok is false when name is no skill.
func (s commands) skillCommand(name, args string) (string, bool, error) {
	if _, ok := s.opts.Skills.Get(name); !ok {
		return "", false, nil
	}
	act, err := s.opts.Skills.Activate(s.opts.Roots, name)
	if err != nil {
		return "", true, err
	}
	text := act.Text()
	if act.Skill.Source == skills.Project {
		text = frameData(s.dataNonce, "skill:"+name, text)
	}
	request := strings.TrimSpace(args)
	if request == "" {
		request = "(no further request: follow the skill's instructions, and ask the user what they want when the skill needs more)"
	}
	return fmt.Sprintf("The user ran /%s to use the skill %s, loaded here:\n\n%s\n\nThe user's request: %s", name, name, text, request), true, nil
}

// skillCommandList is the skills as commands, for the editor. A built-in
// or file command of the same name wins, so such a skill is left out (the
// model can still activate it).
func (s commands) skillCommandList() []Command {
	var out []Command
	for _, sk := range s.opts.Skills.All() {
		if s.commandTaken(sk.Name) {
			continue
		}
		out = append(out, Command{Name: sk.Name, Description: "Skill: " + sk.Description, Hint: "request"})
	}
	return out
}

// commandTaken reports whether a built-in or file command is called name.
func (s commands) commandTaken(name string) bool {
	return slices.ContainsFunc(s.builtinCommands(), func(c Command) bool { return c.Name == name }) ||
		slices.ContainsFunc(s.opts.SlashCommands, func(c slash.Command) bool { return c.Name == name })
}

// skillsListing answers /skills: every skill with its source, where it is,
// what it lists as allowed tools, whether it is active and what it hides.
func (s commands) skillsListing() string {
	all := s.opts.Skills.All()
	var b strings.Builder
	if len(all) == 0 {
		b.WriteString("No skills found. A skill is a folder holding a SKILL.md, in .companion/skills/ (or .gemini/, .claude/, .agents/) of the project, or in skills/ of your companion config folder.\n")
	} else {
		b.WriteString("Skills (the model activates them with activate_skill, asking you the first time; run one yourself as /name <request>):\n")
	}
	for _, sk := range all {
		fmt.Fprintf(&b, "- `%s` (%s, %s): %s", sk.Name, sk.Source, sk.Path, sk.Description)
		if len(sk.AllowedTools) > 0 {
			fmt.Fprintf(&b, " Lists allowed tools: %s (grants nothing).", strings.Join(sk.AllowedTools, ", "))
		}
		if s.opts.Skills.Activated(sk.Name) {
			b.WriteString(" Active in this session.")
		}
		for _, h := range sk.Shadowed {
			fmt.Fprintf(&b, " Hides the %s skill in %s.", h.Source, h.Path)
		}
		b.WriteString("\n")
	}
	if !s.policy.Trusted() {
		b.WriteString("The workspace is not trusted, so the project's skills are not available.\n")
	}
	return b.String()
}
