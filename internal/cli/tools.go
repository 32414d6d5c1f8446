package cli

import (
	"companion/agent/memory"
	"companion/config"
	"companion/secrets"
	"companion/tools"
	"companion/tools/builtin"
	"companion/tools/sandbox"
)

// BuiltinTools returns what makes every built-in tool, configured from
// cfg, with the shell sandbox's backend picked by probe (shared with the
// host's hooks and MCP servers; nil probes on its own).
func BuiltinTools(probe *sandbox.Prober) func(cfg config.Config) *tools.Registry {
	return func(cfg config.Config) *tools.Registry { return builtinTools(cfg, probe) }
}

// builtinTools is every built-in tool, configured from cfg, the shell
// sandbox's backend picked by probe.
func builtinTools(cfg config.Config, probe *sandbox.Prober) *tools.Registry {
	all := builtin.ReadOnly(builtin.ReadOnlyOptions{})
	all = append(all, builtin.Editing(builtin.EditOptions{})...)
	all = append(all, builtin.Extras(builtin.ExtraOptions{AllowPrivate: cfg.AllowPrivateFetch})...)
	all = append(all, builtin.Shell(builtin.ShellOptions{Env: secrets.EnvFilter{Include: cfg.ShellEnvironment.Include,
		Exclude: cfg.ShellEnvironment.Exclude, Values: cfg.Secrets()}, Sandbox: shellSandbox(cfg, probe), Shell: cfg.Shell})...)
	if dir := cfg.ConfigDir(); dir != "" {
		names := cfg.MemoryFileNames
		if len(names) == 0 {
			names = memory.DefaultFileNames()
		}
		all = append(all, memory.SaveMemoryTool(dir, names[0]))
	}
	return tools.NewRegistry(all...)
}

// shellSandbox is the sandbox shell commands run in, its backend picked
// by probe.
func shellSandbox(cfg config.Config, probe *sandbox.Prober) *sandbox.Sandbox {
	return probe.New(sandbox.SettingsMode(cfg.Sandbox), cfg.SandboxNetwork)
}
