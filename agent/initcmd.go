package agent

import (
	"os"
	"path/filepath"

	"companion/agent/model"
)

// initPrompt asks the model to look at the project and write a starter
// AGENTS.md; /init sends it as a normal turn, so the write is reviewed
// like any other edit.
const initPrompt = `Look at this project and write a starter AGENTS.md at its root for coding agents working in it.
First explore: list the top-level files, read the README and the build files (go.mod, package.json, Makefile, pyproject.toml, Cargo.toml, ...), and glance at the main source folders and tests.
Then write AGENTS.md with write_file. Keep it short and factual, in these sections:
## Project — what it is, in two or three sentences.
## Layout — the main folders and what each holds.
## Commands — how to build, test, lint and run it (exact commands found in the project).
## Conventions — code style, naming, testing habits you can see in the code.
Do not invent anything you did not see.`

// initCommand turns /init into its prompt, or says why not.
func (s commands) initCommand() ([]model.Part, string) {
	path := filepath.Join(s.Root(), "AGENTS.md")
	if _, err := os.Stat(path); err == nil {
		return nil, "AGENTS.md already exists at " + path + "; edit it, or delete it and run /init again."
	}
	return []model.Part{{Text: initPrompt}}, ""
}
