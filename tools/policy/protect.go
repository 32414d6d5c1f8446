package policy

import (
	"os"
	"path/filepath"
	"strings"

	"companion/tools"
)

// protectedDirs are folders whose files grant powers: settings that run
// programs, hooks, commands, agents and MCP servers of companion and of
// the other tools that read the workspace. Writing anything inside them
// asks every time. Names are compared in lower case.
func protectedDirs(name string) string {
	switch name {
	case ".git":
		return "it is git's own data: its config and hooks make git run programs"
	case ".companion":
		return "it is companion's project settings (permissions, hooks, MCP servers, commands, agents)"
	case ".gemini":
		return "it is Gemini CLI's settings (permissions, hooks, MCP servers, commands, extensions)"
	case ".claude":
		return "it is Claude Code's settings (permissions, hooks, MCP servers, commands, agents, skills)"
	case ".vscode":
		return "it is VS Code's workspace settings, tasks and launch configurations, which can run programs"
	case ".idea":
		return "it is a JetBrains IDE's settings and run configurations, which can run programs"
	case ".devcontainer":
		return "it is a dev container definition, whose commands run when the folder is opened"
	case ".zed":
		return "it is Zed's project settings, whose language servers, context servers and tasks run programs"
	case ".cursor":
		return "it is Cursor's project settings, whose MCP servers and rules it starts and reads"
	case ".husky":
		return "it holds git hooks, which run on git commands"
	case ".ssh":
		return "it holds SSH keys and settings, which can run programs"
	}
	return ""
}

// protectedFiles are single files that grant powers, by lower-case name.
func protectedFiles(name string) string {
	switch name {
	case ".mcp.json":
		return "it lists MCP servers that agents and editors start"
	case ".envrc":
		return "direnv runs it when the folder is entered"
	case ".npmrc", ".yarnrc", ".yarnrc.yml":
		return "it is a package manager's settings, which can make it run programs"
	case ".gitconfig", ".gitmodules":
		return "it is git settings, which can make git run programs"
	case ".pre-commit-config.yaml", "lefthook.yml", ".lefthook.yml", "lefthook-local.yml", ".lefthook-local.yml":
		return "it defines git hooks, which run on git commands"
	case ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin":
		return "it is a shell start-up file, which runs in every new shell"
	}
	switch {
	case strings.HasSuffix(name, ".code-workspace"):
		return "it is a VS Code workspace, whose settings and tasks can run programs"
	case name == ".env" || strings.HasPrefix(name, ".env.") && !envTemplate(name):
		return "it is an environment file that tools load into the programs they run"
	}
	return ""
}

// envTemplate reports whether a .env.* name is a template, which nothing
// loads.
func envTemplate(name string) bool {
	for _, s := range []string{".example", ".sample", ".template", ".dist"} {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// protectedWhy says why writing rel, a path relative to its workspace
// root, must be asked about every time; "" when nothing protects it. Any
// spelling counts: components are compared in lower case (case-insensitive
// file systems), and a folder matches at any depth (a nested repository's
// .git is as powerful as the root's).
func protectedWhy(rel string) string {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for i, p := range parts {
		name := strings.ToLower(p)
		if why := protectedDirs(name); why != "" {
			return why
		}
		next := ""
		if i+1 < len(parts) {
			next = strings.ToLower(parts[i+1])
		}
		if name == ".config" && (next == "companion" || next == "git" || next == "gemini") {
			return "it is a user's settings folder for " + next + ", which can make it run programs"
		}
		if i == len(parts)-1 {
			return protectedFiles(name)
		}
	}
	return ""
}

// protectedAsk names why a call that writes a file which grants powers
// must be asked about, whatever the mode (but yolo), rules and "always"
// answers say; "" when it writes none.
func (p *Policy) protectedAsk(c Call) string {
	conf := c.Confirm
	switch conf.Type {
	case tools.ConfirmEdit:
		return p.protectedPath(commandDir(c.Root, ""), conf.Path)
	case tools.ConfirmExec:
		dir := c.workDir()
		for _, target := range conf.Redirects {
			if why := p.protectedPath(dir, target); why != "" {
				return why
			}
		}
		return p.protectedArgs(dir, conf.Commands)
	}
	return ""
}

// protectedPath checks path (relative to dir) as written and as the kernel
// will resolve it, and asks about a file with other hard links, which may
// be a protected file under another name.
func (p *Policy) protectedPath(dir, path string) string {
	lexical := path
	if !filepath.IsAbs(lexical) {
		lexical = filepath.Join(dir, lexical)
	}
	candidates := []string{filepath.Clean(lexical)}
	if real, err := kernelPathIn(dir, path); err == nil {
		candidates = append(candidates, real)
		if linkedElsewhere(real) {
			return "asked every time: " + p.roots.Display(real) + " has other hard links, which may be a protected file under another name"
		}
	}
	for _, abs := range candidates {
		root, ok := p.roots.RootOf(abs)
		if !ok {
			continue
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil {
			continue
		}
		if why := protectedWhy(rel); why != "" {
			return "asked every time: " + filepath.ToSlash(rel) + " grants powers, because " + why
		}
	}
	return p.homeSecret(candidates)
}

// commandDir is the absolute directory a shell command runs in, resolved
// as the kernel will (kept as written when it cannot be resolved), so that
// kernelPathIn resolves its arguments without walking it again.
func commandDir(root, dir string) string {
	switch {
	case dir == "":
		dir = root
	case !filepath.IsAbs(dir):
		dir = filepath.Join(root, dir)
	}
	if real, err := kernelPath(dir, "."); err == nil {
		return real
	}
	return dir
}

// redirectOutside names why a redirect target must be asked about as a
// write outside the workspace: it is computed at run time, starts at a
// home directory, leads through /proc, or resolves (as the kernel will,
// symlinks and ".." in turn) outside every root.
func (p *Policy) redirectOutside(dir, target string) string {
	const outside = "the command writes to a file outside the workspace"
	if target == "" || strings.HasPrefix(target, "~") {
		return outside
	}
	real, err := kernelPathIn(dir, target)
	if err != nil {
		return "the command writes to a file companion cannot locate: " + err.Error()
	}
	if !p.roots.Contains(real) {
		return outside
	}
	return ""
}

// linkedElsewhere reports whether the existing regular file at abs has
// more than one hard link.
func linkedElsewhere(abs string) bool {
	fi, err := os.Lstat(abs)
	return err == nil && fi.Mode().IsRegular() && hardLinks(fi) > 1
}
