package agent

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"companion/agent/checkpoint"
	"companion/tools/shell"
)

// listingMaxEntries bounds the workspace listing in the system prompt.
const listingMaxEntries = 120

// systemPrompt returns the session's system prompt. It is built on the
// first request and kept, so that every request of the session starts
// with the same bytes (providers cache that prefix); it is built again
// only when the approval mode changed (the mode part says what the mode
// allows) or the memory files were reloaded.
func (s *engine) systemPrompt(ctx context.Context) (string, error) {
	mode := s.Mode()
	if cached := s.system.get(); cached != "" && s.systemMode.get() == mode {
		return cached, nil
	}
	in := s.promptInputs(ctx, mode)
	out := renderPrompt(&in)
	s.system.set(out)
	s.systemMode.set(mode)
	return out, ctx.Err()
}

// promptInputs gathers what the system prompt says of this session.
func (s *engine) promptInputs(ctx context.Context, mode string) promptInputs {
	p := s.opts.Prompt
	if bad := unknownParts(p.Disable); len(bad) > 0 {
		s.opts.Log.Warn("systemPrompt.disable names unknown parts", "unknown", bad, "known", PromptParts())
	}
	in := promptInputs{Custom: s.opts.SystemPrompt, Append: s.opts.AppendSystemPrompt, Nonce: s.dataNonce,
		Mode: mode, Sandbox: p.Sandbox, SandboxNetwork: p.SandboxNetwork, Skills: p.Skills,
		Hooks: s.opts.Hooks != nil, Disabled: p.Disable, Env: s.promptEnv(ctx)}
	if s.delegate != nil {
		in.Agents = s.opts.Agents
	}
	for _, t := range s.builtinTools() {
		in.Tools = append(in.Tools, t.Name())
	}
	return in
}

// promptEnv reads the environment part's facts: the date (a day), the
// system, the roots, git, the listing and the memory files.
func (s *engine) promptEnv(ctx context.Context) promptEnv {
	root := s.Root()
	e := promptEnv{Date: s.opts.Now().Format("Monday, January 2, 2006"), OS: osName(), Shell: shell.ProgramName(shell.Local(s.opts.Prompt.Shell)),
		Roots: s.opts.Roots.All(), Listing: listing(ctx, root, listingMaxEntries)}
	e.InGit, e.Git = gitBranch(root)
	e.Memory = s.loadMemory(ctx)
	if mem := s.memory.get(); mem != nil {
		e.MemoryFiles = mem.Files()
	}
	return e
}

// listing is a bounded, breadth-first listing of dir two levels deep,
// skipping hidden entries and common dependency folders.
func listing(ctx context.Context, dir string, max int) string {
	var lines []string
	queue := []string{""}
	for depth := 0; depth < 2 && len(queue) > 0 && len(lines) < max; depth++ {
		var next []string
		for _, rel := range queue {
			if ctx.Err() != nil {
				break
			}
			entries, err := os.ReadDir(filepath.Join(dir, rel))
			if err != nil {
				continue
			}
			for _, e := range entries {
				if skipInListing(e) {
					continue
				}
				if len(lines) >= max {
					break
				}
				p := filepath.Join(rel, e.Name())
				if e.IsDir() {
					lines = append(lines, p+"/")
					next = append(next, p)
				} else {
					lines = append(lines, p)
				}
			}
		}
		queue = next
	}
	sort.Strings(lines)
	out := strings.Join(lines, "\n") + "\n"
	if len(lines) >= max {
		out += fmt.Sprintf("(listing cut at %d entries; use list_directory or glob for more)\n", max)
	}
	return out
}

func skipInListing(e fs.DirEntry) bool {
	name := e.Name()
	return strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor" || name == "__pycache__"
}

// osName is the operating system and architecture, as Go names them.
func osName() string { return runtime.GOOS + "/" + runtime.GOARCH }

// gitBranch reports whether dir is inside a git repository and its
// branch: the name HEAD points to, or "HEAD" when it is detached. It reads
// the repository's files rather than running git, which may be missing.
func gitBranch(dir string) (bool, string) {
	for d := dir; ; {
		gitDir, ok := checkpoint.GitDirOf(filepath.Join(d, ".git"))
		if ok {
			head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
			if err != nil {
				return true, "HEAD"
			}
			ref, isRef := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: ")
			if !isRef {
				return true, "HEAD"
			}
			return true, strings.TrimPrefix(ref, "refs/heads/")
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false, ""
		}
		d = parent
	}
}
