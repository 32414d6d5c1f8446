// Package slash loads the user's own slash commands and renders them into
// prompts. A command is a TOML file (description, prompt) under
// .companion/commands/ in the project or commands/ in the user's
// configuration directory, named by its path: git/commit.toml is
// /git:commit. Its prompt may use {{args}} (the text after the command),
// @{path} (a file's content) and !{command} (a shell command's output).
//
// The package owns the file format, loading with its errors, and template
// expansion, including shell quoting of arguments placed in !{...}. Reading
// files and running commands are the agent's: it passes an Env that routes
// them through its workspace roots, editor buffers and shell policy.
//
// It imports github.com/BurntSushi/toml, mvdan.cc/sh/v3/syntax and the
// standard library; nothing of companion's own.
package slash
