package cli

import (
	"companion/agent/memory"
	"companion/config"
	"companion/secrets"
	"companion/tools"
	"companion/tools/builtin"
	"companion/tools/sandbox"
)

// BuiltinTools is every built-in tool, configured from cfg.
func BuiltinTools(cfg config.Config) *tools.Registry {
	all := builtin.ReadOnly(builtin.ReadOnlyOptions{})
	all = append(all, builtin.Editing(builtin.EditOptions{})...)
	all = append(all, builtin.Extras(builtin.ExtraOptions{AllowPrivate: cfg.AllowPrivateFetch})...)
	all = append(all, builtin.Shell(builtin.ShellOptions{Env: secrets.EnvFilter{Include: cfg.ShellEnvironment.Include,
		Exclude: cfg.ShellEnvironment.Exclude, Values: cfg.Secrets()}, Sandbox: shellSandbox(cfg), Shell: cfg.Shell})...)
	if dir := cfg.ConfigDir(); dir != "" {
		names := cfg.MemoryFileNames
		if len(names) == 0 {
			names = memory.DefaultFileNames()
		}
		all = append(all, memory.SaveMemoryTool(dir, names[0]))
	}
	return tools.NewRegistry(all...)
}

// shellSandbox is the sandbox shell commands run in.
func shellSandbox(cfg config.Config) *sandbox.Sandbox {
	return sandbox.New(sandbox.SettingsMode(cfg.Sandbox), cfg.SandboxNetwork)
}
