package host

import (
	"log/slog"
	"sync/atomic"

	"companion/config"
	"companion/tools"
	"companion/tools/mcp"
	"companion/tools/sandbox"
)

// Commands companion starts besides the shell tool's (hooks, stdio MCP
// servers) run in the same sandbox mode as shell commands, with network
// unless the settings say otherwise. Who may loosen it:
//   - the mode ("sandbox") and hooksSandboxNetwork come from the user's
//     settings or the --sandbox flag only: config.Project has no such
//     fields, so a project's settings cannot set them;
//   - a server's "sandbox": false is honoured for the user's servers and
//     the client's (the editor's or the SDK's), never for a project's,
//     which stays sandboxed whatever it says ("sandboxNetwork": false,
//     which only tightens, is honoured from anywhere);
//   - an untrusted workspace loads no project settings at all.

// sandboxMode is the settings' sandbox mode.
func sandboxMode(cfg config.Config) sandbox.Mode { return sandbox.SettingsMode(cfg.Sandbox) }

// commandSandbox is the sandbox for commands companion starts besides the
// shell tool's, in cfg's mode with no network of its own (each command
// asks for it: see commandWrap), its backend picked by probe (the host's,
// shared by every sandbox of the process); nil when the sandbox is off.
func commandSandbox(cfg config.Config, probe *sandbox.Prober) *sandbox.Sandbox {
	m := sandboxMode(cfg)
	if !m.Sandboxed() {
		return nil
	}
	return probe.New(m, false)
}

// commandWrap is the Wrap of commands run in sb with the session's roots
// (as they are when each command starts), with network when network is
// set; nil when sb is nil or off.
func commandWrap(sb *sandbox.Sandbox, roots *tools.Roots, network bool) func([]string) ([]string, error) {
	if !sb.Active() {
		return nil
	}
	return func(argv []string) ([]string, error) {
		return sb.WrapWith(roots.All(), argv, sandbox.WrapOpts{Network: network})
	}
}

// hooksNetwork reports whether sandboxed hooks reach the network (the
// default).
func hooksNetwork(cfg config.Config) bool {
	return cfg.HooksSandboxNetwork == nil || *cfg.HooksSandboxNetwork
}

// sandboxServers sets the sandbox of each stdio server (its backend
// picked by probe), and for the project's servers (named in project) the
// gate that stops them when the workspace loses trust. A project server's
// "sandbox": false is ignored.
func sandboxServers(servers []mcp.ServerConfig, project map[string]bool, cfg config.Config, roots *tools.Roots,
	gate *mcp.Gate, probe *sandbox.Prober, log *slog.Logger) []mcp.ServerConfig {
	sb := commandSandbox(cfg, probe)
	out := make([]mcp.ServerConfig, len(servers))
	for i, s := range servers {
		if project[s.Name] {
			s.Gate = gate
			if s.Unsandboxed && sandboxMode(cfg).Sandboxed() {
				log.Warn("a project's MCP server cannot leave the sandbox; it runs sandboxed", "server", s.Name)
			}
			s.Unsandboxed = false
		}
		if s.Command != "" && !s.Unsandboxed {
			s.Wrap = commandWrap(sb, roots, !s.NoNetwork)
		}
		out[i] = s
	}
	return out
}

// projectGate holds what a session loaded from the project's settings
// (hooks, MCP servers) to the workspace's trust: while it is closed,
// project hooks are skipped and project servers are stopped and refused.
type projectGate struct {
	open atomic.Bool
	mcp  *mcp.Gate
}

// newProjectGate returns an open gate.
func newProjectGate() *projectGate {
	g := &projectGate{mcp: mcp.NewGate()}
	g.open.Store(true)
	return g
}

// enabled reports whether project hooks may run.
func (g *projectGate) enabled() bool { return g.open.Load() }

// set opens the gate when the workspace is trusted, else closes it (why
// says why), stopping the project's MCP servers at once.
func (g *projectGate) set(trusted bool, why string) {
	g.open.Store(trusted)
	if trusted {
		g.mcp.Open()
		return
	}
	g.mcp.Close("the workspace is no longer trusted (" + why + ")")
}
