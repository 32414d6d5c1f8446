package agent

import (
	"fmt"
	"strings"

	"companion/tools/sandbox"
)

// statusText is /status: the model, the approval mode, the command
// sandbox (mode, the backend that confines commands and why, network) and
// the session's folders.
func (s commands) statusText() string {
	var b strings.Builder
	b.WriteString("Status:\n")
	fmt.Fprintf(&b, "- Model: %s\n", s.ModelName())
	fmt.Fprintf(&b, "- Approval mode: %s\n", s.Mode())
	fmt.Fprintf(&b, "- Sandbox: %s\n", sandboxStatus(s.opts.SandboxProber, s.opts.Prompt.Sandbox, s.opts.Prompt.SandboxNetwork))
	b.WriteString("- Folders:")
	if s.opts.Roots != nil {
		for _, r := range s.opts.Roots.All() {
			fmt.Fprintf(&b, "\n  - %s", r)
		}
	}
	b.WriteString("\n")
	if s.opts.LanguageServers != nil {
		b.WriteString(languageServersStatus(s.opts.LanguageServers()))
	}
	return b.String()
}

// languageServersStatus is /status's list of language servers.
func languageServersStatus(lines []string) string {
	if len(lines) == 0 {
		return "- Language servers: none for this workspace\n"
	}
	var b strings.Builder
	b.WriteString("- Language servers:\n")
	for _, l := range lines {
		fmt.Fprintf(&b, "  - %s\n", l)
	}
	return b.String()
}

// sandboxStatus says how shell commands are confined in mode (a settings
// value; one that does not parse is read-only, as the shell tool takes
// it) with network or not: the backend is picked as the shell tool picks
// it, on this machine and with companion's environment, by probe (nil:
// a probe of its own).
func sandboxStatus(probe *sandbox.Prober, mode string, network bool) string {
	m := sandbox.SettingsMode(mode)
	if !m.Sandboxed() {
		return "off (commands run unconfined)"
	}
	be := probe.New(m, network).Backend()
	if be.Name == sandbox.None {
		return fmt.Sprintf("%s, but no backend can run here, so commands are refused: %s", m, be.Why)
	}
	net := "network blocked"
	if network {
		net = "network allowed"
	}
	out := fmt.Sprintf("%s, backend %s (%s), %s", m, be.Name, be.Why, net)
	if be.Name == sandbox.Landlock {
		out += "\n  " + sandbox.LandlockLimits(m)
	}
	return out
}

// LanguageServers lists the session's language servers as /status does,
// one line each (state and memory, or how to install a missing one): for
// the editors' status views. Empty when the session has none.
func (s *Session) LanguageServers() []string {
	if s.opts.LanguageServers == nil {
		return []string{}
	}
	return append([]string{}, s.opts.LanguageServers()...)
}
