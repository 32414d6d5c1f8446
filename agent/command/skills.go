package command

import (
	"fmt"
	"slices"
	"strings"

	"companion/agent"
	"companion/agent/skills"
	"companion/agent/slash"
)

// skillCommand runs /name args for the skill called name: the user's own
// request activates it (no question asked) and the prompt is the skill's
// instructions followed by args. A project skill's instructions are framed
// as data; the user's request outside the frame is what directs the model.
// ok is false when name is no skill.
func (c *commands) skillCommand(name, args string) (string, bool, error) {
	if _, ok := c.cfg.skills.Get(name); !ok {
		return "", false, nil
	}
	act, err := c.cfg.skills.Activate(c.cfg.roots, name)
	if err != nil {
		return "", true, err
	}
	text := act.Text()
	if act.Skill.Source == skills.Project {
		text = c.s.FrameData("skill:"+name, text)
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
func (c *commands) skillCommandList() []agent.Command {
	var out []agent.Command
	for _, sk := range c.cfg.skills.All() {
		if c.commandTaken(sk.Name) {
			continue
		}
		out = append(out, agent.Command{Name: sk.Name, Description: "Skill: " + sk.Description, Hint: "request"})
	}
	return out
}

// commandTaken reports whether a built-in or file command is called name.
func (c *commands) commandTaken(name string) bool {
	return slices.ContainsFunc(c.builtinCommands(), func(b agent.Command) bool { return b.Name == name }) ||
		slices.ContainsFunc(c.cfg.slash, func(f slash.Command) bool { return f.Name == name })
}

// skillsListing answers /skills: every skill with its source, where it is,
// what it lists as allowed tools, whether it is active and what it hides.
func (c *commands) skillsListing() string {
	all := c.cfg.skills.All()
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
		if c.cfg.skills.Activated(sk.Name) {
			b.WriteString(" Active in this session.")
		}
		for _, h := range sk.Shadowed {
			fmt.Fprintf(&b, " Hides the %s skill in %s.", h.Source, h.Path)
		}
		b.WriteString("\n")
	}
	if !c.s.Trusted() {
		b.WriteString("The workspace is not trusted, so the project's skills are not available.\n")
	}
	return b.String()
}
