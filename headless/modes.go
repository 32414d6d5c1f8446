package headless

import (
	"fmt"
	"strings"

	"companion/agent"
)

// agentMode reads a permission mode as SDKs and the command line spell it.
func agentMode(mode string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(mode)) {
	case "default":
		return agent.ModeDefault, nil
	case "plan":
		return agent.ModePlan, nil
	case "auto-edit", "auto_edit", "autoedit", "acceptedits":
		return agent.ModeAutoEdit, nil
	case "yolo", "bypasspermissions":
		return agent.ModeYolo, nil
	}
	return "", fmt.Errorf("unknown permission mode %q: want default, plan, auto-edit or yolo", mode)
}

// sdkMode is an agent mode as SDKs spell it.
func sdkMode(id string) string {
	if id == agent.ModeAutoEdit {
		return "auto-edit"
	}
	return id
}

// AgentMode reads an --approval-mode value (default, plan, auto-edit,
// yolo, and the SDKs' spellings) as an agent mode id, for the other
// front ends' flags.
func AgentMode(mode string) (string, error) { return agentMode(mode) }
