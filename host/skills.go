package host

import (
	"fmt"
	"log/slog"
	"strings"

	"companion/agent"
	"companion/agent/skills"
	"companion/tools"
)

// maxNoticeProblems bounds the skipped skills one notice names.
const maxNoticeProblems = 8

// addSkills gives opts the session's skills (see sessionSkills): the
// catalog, the system prompt's summaries and the notice, if any.
func addSkills(opts *agent.Options, b Base, getenv func(string) string, trusted func() bool, log *slog.Logger) {
	cat, notice := sessionSkills(b, getenv, trusted, log)
	opts.Skills, opts.Prompt.Skills = cat, promptSkills(cat)
	if notice != nil {
		opts.Notices = append(opts.Notices, *notice)
	}
}

// sessionSkills finds the session's skills and adds the catalog's
// activate_skill tool to reg when there is any. Project skills are only
// found in a trusted workspace, and are refused later while trusted
// reports false. Skipped skills and the ones a project skill hides are
// told once, in the notice it returns (nil when there is nothing to say).
func sessionSkills(b Base, getenv func(string) string, trusted func() bool, log *slog.Logger) (*skills.Catalog, *agent.Notice) {
	found, problems := skills.Discover(skills.Locations(b.Roots.All(), b.Trusted, b.Config.ConfigDir(), getenv("HOME")))
	for _, p := range problems {
		log.Warn("skill skipped", "path", p.Path, "err", p.Err)
	}
	for _, sk := range found {
		for _, h := range sk.Shadowed {
			log.Info("skill hidden by another of the same name", "skill", sk.Name, "used", sk.Path, "hidden", h.Path)
		}
	}
	if len(found) == 0 && len(problems) == 0 {
		return nil, nil
	}
	cat := skills.NewCatalog(found, trusted)
	if len(found) > 0 {
		if err := addTool(b.Tools, cat.Tool()); err != nil {
			log.Warn("skills are off", "err", err)
			return nil, nil
		}
	}
	text := SkillNotice(found, problems)
	if text == "" {
		return cat, nil
	}
	return cat, &agent.Notice{Level: "warning", Text: text}
}

// promptSkills is what the system prompt tells of the skills: name and
// description only.
func promptSkills(cat *skills.Catalog) []agent.SkillSummary {
	var out []agent.SkillSummary
	for _, s := range cat.Summaries() {
		out = append(out, agent.SkillSummary{Name: s.Name, Description: s.Description})
	}
	return out
}

// addTool adds t to reg, which the session owns.
func addTool(reg *tools.Registry, t tools.Tool) error {
	if reg == nil {
		return fmt.Errorf("no tool registry for %s", t.Name())
	}
	return reg.Add(t)
}

// SkillNotice says which skills were skipped and why, and which project
// skills hide a user skill of the same name (a clash between the user's
// own folders only shows in /skills and the log); "" when there is
// nothing to say.
func SkillNotice(found []skills.Skill, problems []skills.Problem) string {
	var b strings.Builder
	if len(problems) > 0 {
		b.WriteString("Some skills were skipped:\n")
		for i, p := range problems {
			if i == maxNoticeProblems {
				fmt.Fprintf(&b, "- and %d more (see the log)\n", len(problems)-i)
				break
			}
			fmt.Fprintf(&b, "- %s\n", p)
		}
	}
	for _, sk := range found {
		for _, h := range sk.Shadowed {
			if sk.Source == skills.Project && h.Source == skills.User {
				fmt.Fprintf(&b, "The project's skill %s (%s) hides your skill of the same name in %s.\n", sk.Name, sk.Path, h.Path)
			}
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
