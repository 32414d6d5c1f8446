package skills

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"companion/tools"
)

// ToolName is the name of the tool that activates a skill.
const ToolName = "activate_skill"

// activateParams are activate_skill's parameters.
type activateParams struct {
	Name string `json:"name" required:"true" desc:"The skill's name, exactly as listed."`
}

// Tool returns this catalog's activate_skill tool. Unlike the built-in
// tools it belongs to one session: it asks the user the first time each
// skill is activated, and not again once the session has it.
func (c *Catalog) Tool() tools.Tool {
	return tools.Define(tools.Def[activateParams]{
		Name: ToolName, Kind: tools.KindOther,
		Description: c.description(),
		Schema:      c.schema(),
		Prepare: func(env *tools.Env, p activateParams) (tools.Invocation, error) {
			sk, ok := c.Get(strings.TrimSpace(p.Name))
			if !ok {
				return nil, tools.ArgErrorf("there is no skill %q; skills: %s", p.Name, strings.Join(c.Names(), ", "))
			}
			return &activateCall{c: c, env: env, skill: sk}, nil
		},
	})
}

// description tells the model when to activate a skill. The skills
// themselves are listed in the schema's enum and, by name and
// description, in the system prompt.
func (c *Catalog) description() string {
	return "Load the full instructions of one skill, a package of expert guidance and resource files for a kind of task, " +
		"when the user's request matches the skill's description. The first activation of each skill asks the user. " +
		"The answer holds the skill's instructions and the absolute paths of its resource files, which read_file can open. " +
		"Activate a skill once per session: its instructions stay in the conversation. A skill lists tools it may use; " +
		"that grants no permission."
}

// schema is the parameters' schema, with the skill names as an enum.
func (c *Catalog) schema() json.RawMessage {
	names, _ := json.Marshal(c.Names())
	return json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","enum":` + string(names) +
		`,"description":"The skill's name, exactly as listed."}},"required":["name"]}`)
}

// activateCall is one activation.
type activateCall struct {
	c     *Catalog
	env   *tools.Env
	skill Skill
}

func (a *activateCall) Title() string { return "Activate skill " + a.skill.Name }

func (a *activateCall) Locations() []tools.Location {
	return []tools.Location{{Path: a.skill.Path}}
}

// Confirmation asks the first time the session activates the skill.
func (a *activateCall) Confirmation(context.Context) (*tools.Confirmation, error) {
	if a.c.Activated(a.skill.Name) {
		return nil, nil
	}
	// No "always": activation asks once per skill anyway, and a rule for
	// activate_skill would let every other skill in unseen.
	return &tools.Confirmation{Type: tools.ConfirmInfo, Title: a.Title(), Prompt: a.prompt(), OnceOnly: true}, nil
}

// prompt is the question's text: which skill, whose, from where, and what
// tools it lists.
func (a *activateCall) prompt() string {
	sk := a.skill
	var b strings.Builder
	fmt.Fprintf(&b, "Load the instructions of the %s skill %q into the conversation?\n%s\nFrom %s", sk.Source, sk.Name, sk.Description, sk.Path)
	if len(sk.AllowedTools) > 0 {
		fmt.Fprintf(&b, "\nIt lists these tools as allowed: %s (this grants nothing; calls are still checked).", strings.Join(sk.AllowedTools, ", "))
	}
	return b.String()
}

// Execute loads the skill; a problem with it is the model's to read.
func (a *activateCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	act, err := a.c.Activate(a.env.Roots, a.skill.Name)
	if err != nil {
		if errors.Is(err, errUntrusted) {
			return tools.ErrorResult("Skill " + a.skill.Name + " was not loaded: " + err.Error() + "."), nil
		}
		return tools.ErrorResult(fmt.Sprintf("Skill %s could not be loaded: %v", a.skill.Name, err)), nil
	}
	files := fmt.Sprintf("%d resource files", len(act.Resources))
	if len(act.Resources) == 1 {
		files = "1 resource file"
	}
	display := fmt.Sprintf("Activated the %s skill %s (%s).", act.Skill.Source, act.Skill.Name, files)
	return &tools.Result{Text: act.Text(), Display: display}, nil
}
