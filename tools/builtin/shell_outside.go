package builtin

import (
	"companion/tools/sandbox"
)

// outsideHint follows the sandbox's note in the result of a command the
// sandbox stopped: how the model may ask to run it without the sandbox.
const outsideHint = "If the command needs that access, you may run it again with outside_sandbox set to true; " +
	"the user will be asked to approve running it without the sandbox."

// OutsideSandbox reports whether the call asks to run outside an active
// sandbox: such a call needs its own approval, asked every time, which
// no "always" answer, allow rule or approval mode gives (the agent asks
// it; see AllowOutsideSandbox).
func (c *runShellCall) OutsideSandbox() bool {
	return c.p.OutsideSandbox && c.opts.Sandbox.Active()
}

// AllowOutsideSandbox records that the user allowed this one call to run
// outside the sandbox. Without it, a call asking to run outside an active
// sandbox is refused when it executes, so that a caller that forgot to
// ask never runs a command unsandboxed.
func (c *runShellCall) AllowOutsideSandbox() { c.outsideAllowed = true }

// sandboxFor is the sandbox the call's local command runs in: none when
// the user allowed it to run outside.
func (c *runShellCall) sandboxFor() *sandbox.Sandbox {
	if c.p.OutsideSandbox && c.outsideAllowed {
		return nil
	}
	return c.opts.Sandbox
}

// sandboxNote is the note for a command the sandbox stopped, with the
// hint to run it outside; "" when the sandbox did not stop it.
func (c *runShellCall) sandboxNote(failed bool, output string) string {
	note := c.sandboxFor().Note(failed, output)
	if note == "" {
		return ""
	}
	return note + " " + outsideHint
}
