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
)

// listingMaxEntries bounds the workspace listing in the system prompt.
const listingMaxEntries = 200

// systemPrompt returns the session's system prompt, building it once.
func (s *Session) systemPrompt(ctx context.Context) (string, error) {
	if cached := s.system.get(); cached != "" {
		return cached, nil
	}
	root := s.Root()
	var b strings.Builder
	if s.opts.SystemPrompt != "" {
		b.WriteString(s.opts.SystemPrompt)
	} else {
		b.WriteString(basePrompt)
	}
	b.WriteString(dataFramePrompt(s.dataNonce))
	if s.opts.AppendSystemPrompt != "" {
		b.WriteString("\n\n" + s.opts.AppendSystemPrompt)
	}
	fmt.Fprintf(&b, "\n\n# Environment\n- Date: %s\n- OS: %s/%s\n- Working directory (session root): %s\n",
		s.opts.Now().Format("Monday, January 2, 2006"), runtime.GOOS, runtime.GOARCH, root)
	if extra := s.opts.Roots.All()[1:]; len(extra) > 0 {
		fmt.Fprintf(&b, "- Additional directories: %s\n", strings.Join(extra, ", "))
	}
	b.WriteString("\n# Top of the working directory\n")
	b.WriteString(listing(ctx, root, listingMaxEntries))
	if mem := s.loadMemory(ctx); mem != "" {
		fmt.Fprintf(&b, "\n# Instructions from the user and the project\nFollow them; the more specific ones (deeper folders) win.\n\n%s\n", mem)
	}
	out := b.String()
	s.system.set(out)
	return out, ctx.Err()
}

const basePrompt = `You are companion, an AI coding agent working inside the user's editor.
You help with software engineering tasks: reading and explaining code, finding things, planning and making changes.

# How to work
- Understand before acting: use the tools to read the relevant files and search the project; never guess at file contents.
- Follow the project's conventions, style and structure; look at neighbouring code, tests and configuration first.
- Paths you pass to tools are absolute or relative to the working directory, and must stay inside the workspace roots.
- Be concise. Use GitHub-flavoured markdown. Refer to code as path:line so the editor can link it.
- If a tool reports an error, read it and correct the call rather than repeating it.
- When the request is ambiguous, say what you assumed.`

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
