package policy

import (
	"path"
	"path/filepath"
	"strings"

	"companion/tools"
)

// protectedNames are the names protectedWhy knows, with a sample of each
// pattern (.env.local, x.code-workspace), so a glob can be tried on them.
var protectedNames = []string{
	".git", ".companion", ".gemini", ".claude", ".vscode", ".idea", ".devcontainer", ".husky", ".ssh", ".zed", ".cursor",
	".mcp.json", ".envrc", ".npmrc", ".yarnrc", ".yarnrc.yml", ".gitconfig", ".gitmodules",
	".pre-commit-config.yaml", "lefthook.yml", ".lefthook.yml", "lefthook-local.yml", ".lefthook-local.yml", ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc",
	".zshenv", ".zprofile", ".zlogin", ".env", ".env.local", "x.code-workspace",
}

// writers are programs that write or remove the files their arguments
// name. An argument of theirs whose value is only known at run time (an
// expansion) may name a protected file, so it asks.
func writers(name string) bool {
	switch filepath.Base(name) {
	case "cp", "mv", "ln", "install", "tee", "dd", "rsync", "rm", "rmdir", "truncate", "touch", "chmod",
		"chown", "chgrp", "sed", "perl", "patch", "tar", "unzip", "cpio", "curl", "wget", "git", "mkdir",
		"shred", "unlink", "python", "python3", "node", "ruby", "awk", "gawk", "sort", "split", "csplit":
		return true
	}
	return false
}

// protectedArgs names why a shell line must be asked about because one of
// its commands names a file that grants powers in its arguments (cp x
// .git/config, sed -i .. .companion/settings.json, a glob such as .g?t/*),
// or, for a program that writes files, names a file only known at run
// time. "" when none does.
func (p *Policy) protectedArgs(dir string, cmds []tools.ShellCommand) string {
	for _, cmd := range cmds {
		if len(cmd.Words) < 2 {
			continue
		}
		writes := writers(cmd.Words[0])
		for _, w := range cmd.Words[1:] {
			if why := p.protectedArg(dir, argPath(w)); why != "" {
				return why
			}
			if writes && strings.ContainsAny(w, "$`") {
				return "asked every time: " + filepath.Base(cmd.Words[0]) +
					" writes files and an argument (" + w + ") is only known when the line runs; it may name a file that grants powers"
			}
		}
	}
	return ""
}

// argPath is the path part of an argument: the value of --opt=value, or
// the word itself.
func argPath(w string) string {
	if strings.HasPrefix(w, "-") {
		if _, v, ok := strings.Cut(w, "="); ok {
			return v
		}
		return ""
	}
	return w
}

// protectedArg checks one argument: as a path (written and as the kernel
// resolves it), and, when it holds glob characters, whether any of its
// components could match a protected name.
func (p *Policy) protectedArg(dir, arg string) string {
	if abs, ok := p.expandHome(arg); ok {
		arg = abs
	}
	if arg == "" || strings.ContainsAny(arg, "$`") {
		return ""
	}
	if strings.ContainsAny(arg, "*?[") {
		for _, comp := range splitPath(arg) {
			for _, name := range protectedNames {
				if ok, _ := path.Match(strings.ToLower(comp), name); ok && comp != "" {
					return "asked every time: the pattern " + arg + " may match " + name + ", which grants powers"
				}
			}
		}
		return ""
	}
	return p.protectedPath(dir, arg)
}
