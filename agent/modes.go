package agent

// Mode is an approval mode: how freely the agent may act without asking.
type Mode struct {
	ID          string
	Name        string
	Description string
}

// Approval mode ids.
const (
	ModeDefault  = "default"
	ModeAutoEdit = "auto_edit"
	ModeYolo     = "yolo"
	ModePlan     = "plan"
)

// Modes lists the approval modes in the order editors should show them.
func Modes() []Mode {
	return []Mode{
		{ModeDefault, "Default", "Ask before editing files or running commands."},
		{ModeAutoEdit, "Auto edit", "Edit files without asking; ask before running commands."},
		{ModeYolo, "YOLO", "Run every tool without asking."},
		{ModePlan, "Plan", "Read and plan only: no edits, no commands."},
	}
}

func validMode(id string) bool {
	for _, m := range Modes() {
		if m.ID == id {
			return true
		}
	}
	return false
}
