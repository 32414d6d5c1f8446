package agent

import (
	"fmt"
	"slices"
	"strings"
)

// PromptOptions are what the system prompt says beyond the session's own
// state (mode, tools, subagents, hooks, memory): the sandbox shell
// commands run in, the skills the model may activate, and the parts the
// user turned off.
type PromptOptions struct {
	// Disable names parts to leave out (the "systemPrompt.disable"
	// setting); see PromptParts. Unknown names are logged and ignored.
	Disable []string
	// Sandbox is the shell sandbox mode: "", "off", "read-only" or
	// "workspace-write" (tools/sandbox); SandboxNetwork says whether
	// sandboxed commands may use the network.
	Sandbox        string
	SandboxNetwork bool
	// Shell is the configured shell program (the "shell" setting), "" for
	// the platform's default; the prompt names the shell run_shell_command
	// really uses (shell.Local), so a model on Windows is not told bash.
	Shell string
	// Skills are the skills the model may load, each told in one line.
	Skills []SkillSummary
}

// SkillSummary is what the system prompt says of a skill: its name and
// its one-line description.
type SkillSummary struct {
	Name        string
	Description string
}

// promptInputs is everything the system prompt is rendered from. It is
// plain data, so a test can render the prompt of a fixed environment.
type promptInputs struct {
	// Custom replaces the built-in instructions (Options.SystemPrompt);
	// Append follows them (Options.AppendSystemPrompt).
	Custom, Append string
	// Nonce names the session's data frames (untrusted.go).
	Nonce string
	// Mode is the approval mode the prompt is written for.
	Mode string
	// Sandbox and SandboxNetwork are PromptOptions'.
	Sandbox        string
	SandboxNetwork bool
	// Hooks says whether the user has hooks.
	Hooks bool
	// Agents are the subagents delegate_to_agent offers (none when the
	// session cannot delegate).
	Agents []AgentDef
	// Skills are PromptOptions'.
	Skills []SkillSummary
	// Tools are the names of the tools the model has.
	Tools []string
	// Disabled are the parts to leave out.
	Disabled []string
	// Env is the environment part's facts.
	Env promptEnv
}

// promptEnv is what the session knows of its surroundings when the prompt
// is built. Date is a day, never finer: the prompt must stay the same all
// day for providers' prompt caching.
type promptEnv struct {
	Date, OS, Shell string
	// Roots are the workspace roots, the session root first.
	Roots []string
	// Git is the branch ("" outside a repository; "HEAD" when detached);
	// InGit says whether the session root is in a git repository.
	InGit bool
	Git   string
	// Listing is the bounded listing of the session root.
	Listing string
	// MemoryFiles are the instruction files loaded; Memory is their text.
	MemoryFiles []string
	Memory      string
}

// promptPart is one named section of the system prompt. render returns ""
// when the part has nothing to say for these inputs.
type promptPart struct {
	name string
	// builtin parts are the instructions a custom system prompt replaces.
	builtin bool
	// fixed parts cannot be disabled: the untrusted-data framing, which
	// the data frames in every request depend on.
	fixed  bool
	render func(in *promptInputs) string
}

// promptParts lists the parts in prompt order: the general rules first,
// then what this session's setup adds, then its environment and the
// user's instructions.
func promptParts() []promptPart {
	return []promptPart{
		{name: "identity", builtin: true, render: func(*promptInputs) string { return identityText }},
		{name: "core", builtin: true, render: func(*promptInputs) string { return coreText }},
		{name: "workflows", builtin: true, render: renderWorkflows},
		{name: "tools", builtin: true, render: renderTools},
		{name: "git", builtin: true, render: renderGit},
		{name: "safety", render: func(*promptInputs) string { return safetyText }},
		{name: "untrusted_data", fixed: true, render: func(in *promptInputs) string {
			return strings.TrimSpace(dataFramePrompt(in.Nonce))
		}},
		{name: "editor", render: func(*promptInputs) string { return editorText }},
		{name: "mode", render: renderMode},
		{name: "sandbox", render: renderSandbox},
		{name: "hooks", render: renderHooks},
		{name: "subagents", render: renderSubagents},
		{name: "skills", render: renderSkills},
		{name: "environment", render: renderEnvironment},
		{name: "listing", render: renderListing},
		{name: "memory", render: renderMemory},
	}
}

// PromptParts names the parts of the system prompt that the
// "systemPrompt.disable" setting can turn off, in prompt order.
func PromptParts() []string {
	var names []string
	for _, p := range promptParts() {
		if !p.fixed {
			names = append(names, p.name)
		}
	}
	return names
}

// unknownParts returns the names in disable that are no part's.
func unknownParts(disable []string) []string {
	known := PromptParts()
	var out []string
	for _, n := range disable {
		if !slices.Contains(known, n) {
			out = append(out, n)
		}
	}
	return out
}

// renderPrompt assembles the system prompt from its parts.
func renderPrompt(in *promptInputs) string {
	var sections []string
	for _, p := range promptParts() {
		if p.builtin && in.Custom != "" {
			// A custom prompt takes the built-in parts' place, whatever
			// the settings disable.
			if p.name == "identity" {
				sections = append(sections, strings.TrimSpace(in.Custom))
			}
			continue
		}
		if !p.fixed && slices.Contains(in.Disabled, p.name) {
			continue
		}
		if text := p.render(in); text != "" {
			sections = append(sections, text)
		}
	}
	if in.Append != "" {
		sections = append(sections, strings.TrimSpace(in.Append))
	}
	return strings.Join(sections, "\n\n") + "\n"
}

func (in *promptInputs) has(tool string) bool { return slices.Contains(in.Tools, tool) }

func renderTools(in *promptInputs) string {
	text := toolsText
	if in.has("run_shell_command") {
		text += "\n" + backgroundText
	}
	if in.has("save_memory") {
		text += "\n" + memoryToolText
	}
	if in.has("google_web_search") {
		text += "\n" + webSearchText
	}
	if in.has("ask_user") {
		text += "\n" + askUserText
	}
	return text
}

// renderGit speaks of git only inside a repository.
func renderGit(in *promptInputs) string {
	if !in.Env.InGit {
		return ""
	}
	return gitText
}

// renderWorkflows adds when to plan first where the session can switch
// to plan mode itself.
func renderWorkflows(in *promptInputs) string {
	if in.has("enter_plan_mode") && in.Mode != ModePlan {
		return workflowsText + "\n" + enterPlanText
	}
	return workflowsText
}

func renderMode(in *promptInputs) string {
	switch in.Mode {
	case ModePlan:
		if in.has("exit_plan_mode") {
			return planModeText + "\n" + exitPlanText
		}
		return planModeText
	case ModeAutoEdit:
		return autoEditText
	case ModeYolo:
		return yoloText
	}
	return ""
}

// renderSandbox tells what the sandbox lets commands do, and how its
// refusals look, when one is on.
func renderSandbox(in *promptInputs) string {
	where := "to a private /tmp"
	switch in.Sandbox {
	case "", "off":
		return ""
	case "workspace-write":
		where = "inside the workspace roots and a private /tmp"
	}
	network, netFails := "may use the network", ""
	if !in.SandboxNetwork {
		network = "have no network"
		netFails = ", and network use (downloads, installs, git fetch or push) fails to connect"
	}
	return fmt.Sprintf(sandboxText, in.Sandbox, where, network, netFails)
}

func renderHooks(in *promptInputs) string {
	if !in.Hooks {
		return ""
	}
	return hooksText
}

func renderSubagents(in *promptInputs) string {
	return renderNamed(subagentsText, in.Agents, func(a AgentDef) (string, string) { return a.Name, a.Description })
}

func renderSkills(in *promptInputs) string {
	return renderNamed(skillsText, in.Skills, func(s SkillSummary) (string, string) { return s.Name, s.Description })
}

// renderNamed is head followed by one "- name: description" line per
// item, or "" when there are none.
func renderNamed[T any](head string, items []T, named func(T) (name, desc string)) string {
	if len(items) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(head)
	for _, it := range items {
		name, desc := named(it)
		fmt.Fprintf(&b, "\n- %s: %s", name, oneLine(desc))
	}
	return b.String()
}

// oneLine folds text onto one line, cut to a sentence's length.
func oneLine(text string) string {
	const max = 200
	s := strings.Join(strings.Fields(text), " ")
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}

func renderEnvironment(in *promptInputs) string {
	e := in.Env
	var b strings.Builder
	b.WriteString("# Environment\n")
	fmt.Fprintf(&b, "- Date: %s\n- OS: %s; commands run in %s\n", e.Date, e.OS, e.Shell)
	if len(e.Roots) > 0 {
		fmt.Fprintf(&b, "- Working directory (session root): %s\n", e.Roots[0])
	}
	if len(e.Roots) > 1 {
		fmt.Fprintf(&b, "- Additional directories: %s\n", strings.Join(e.Roots[1:], ", "))
	}
	switch {
	case !e.InGit:
		b.WriteString("- Not a git repository\n")
	case e.Git == "HEAD":
		b.WriteString("- Git repository, detached HEAD\n")
	default:
		fmt.Fprintf(&b, "- Git repository, branch %s (as the session started)\n", e.Git)
	}
	if len(e.MemoryFiles) > 0 {
		fmt.Fprintf(&b, "- Instruction files loaded: %s\n", strings.Join(e.MemoryFiles, ", "))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func renderListing(in *promptInputs) string {
	if in.Env.Listing == "" {
		return ""
	}
	return "# Top of the working directory\nTwo levels; hidden entries and dependency folders left out.\n" +
		strings.TrimSuffix(in.Env.Listing, "\n")
}

func renderMemory(in *promptInputs) string {
	if strings.TrimSpace(in.Env.Memory) == "" {
		return ""
	}
	return memoryPartText + "\n\n" + strings.TrimSpace(in.Env.Memory)
}

// forSubagent is what a subagent's prompt says: the same sandbox and
// parts, and the skills only when it may activate them.
func (o PromptOptions) forSubagent(def AgentDef) PromptOptions {
	if !def.allows("activate_skill") {
		o.Skills = nil
	}
	return o
}
