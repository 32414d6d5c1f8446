package host

import (
	"companion/agent"
	"companion/config"
	"companion/tools/lsp"
)

// newLSP gives a session its view of the host's language servers: the
// servers of its settings (the project's only while the workspace is
// trusted, as its hooks), run in the command sandbox without network,
// and wires it into the agent: diagnostics after edits, /status, and the
// navigation tools when a server applies to the workspace or the editor
// answers with its own language features (editor, nil when it does not).
func (h *Host) newLSP(cfg config.Config, opts *agent.Options, project *projectGate, editor lsp.Editor) *lsp.Session {
	servers, problems := lsp.Resolve(cfg.LSP, cfg.ProjectLSP, nil)
	for _, p := range problems {
		opts.Notices = append(opts.Notices, agent.Notice{Level: "warning", Text: p})
	}
	s := h.lsp.Session(lsp.SessionOptions{Servers: servers, Roots: opts.Roots, Trusted: project.enabled,
		Wrap: commandWrap(commandSandbox(cfg, h.opts.Sandbox), opts.Roots, false), Editor: editor})
	opts.Diagnostics, opts.LanguageServers = s, s.Status
	if d := s.EditorDiagnoser(); d != nil {
		opts.EditorDiagnostics = d
	}
	if (s.Applies() || editor != nil) && opts.Tools != nil {
		for _, t := range s.Tools() {
			if err := opts.Tools.Add(t); err != nil {
				h.log.Warn("language server tool not added", "tool", t.Name(), "err", err)
			}
		}
	}
	return s
}

// LanguageServers describes the language servers of cfg that apply in
// dir, for `companion config show`: where each is found, or how to
// install it.
func LanguageServers(cfg config.Config, dir string) []string {
	servers, problems := lsp.Resolve(cfg.LSP, cfg.ProjectLSP, nil)
	return append(problems, lsp.Describe(servers, []string{dir})...)
}
