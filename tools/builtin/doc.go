// Package builtin holds companion's built-in tools, one file each with its
// description in descriptions/*.md, each a tools.Def: read_file,
// list_directory, glob, grep (ripgrep or Go), read_many_files, web_fetch,
// write_todos, replace, write_file, run_shell_command (locally or in the
// editor's terminals) and the tools that manage background commands. It
// also reads @-mentions for prompts (ReadForPrompt) and writes the todo
// reminder.
//
// It imports the tool core (tools) and its siblings tools/shell (shell line
// analysis) and tools/procgroup (process groups).
package builtin
