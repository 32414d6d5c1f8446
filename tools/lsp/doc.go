// Package lsp gives the agent language servers as its eyes, with or
// without an editor: diagnostics after every edit, navigation tools
// (definition, references, hover, document and workspace symbols), and
// rename, which is one edit of every file it changes (the Confirmation's
// More files: one question with every diff, one checkpoint).
//
// Servers come from the "lsp" setting, in the shape Zed and OpenCode use
// (command, args, languages or extensions, rootMarkers,
// initializationOptions, env, disabled), laid over built-in defaults for
// gopls, typescript-language-server, pyright (basedpyright when it is
// installed), rust-analyzer and clangd, each used only when its command
// is on PATH (Resolve). A project's servers run only while the workspace
// is trusted.
//
// The Pool is the process's: one server per (server, root), the root
// being the nearest folder with a root marker above the file, started on
// the first use of a file it serves (nothing starts before), shared by
// every session holding the pool, stopped when the last lets go. A server
// that crashes is started again on the next use once its backoff (1 s
// doubling to 60 s) has passed; until then its users get ErrUnavailable,
// which the agent reads as "no diagnostics" and the tools as an error
// result: a server is never fatal. Servers run as children in process
// groups of their own (tools/procgroup), their command line rewritten
// by the host's command sandbox (the Wrap stdio MCP servers and hooks
// get), without network.
//
// A file is opened on its server for one use and closed right after,
// with its text as the agent wrote it: diagnostics are awaited within
// bounds, longer while the server has given none yet (loading the
// project). A server that says diagnosticProvider is asked for them
// (LSP 3.17 pull: textDocument/diagnostic, naming the last report kept so
// it may answer "unchanged", keeping the reports of related documents it
// sends along); the others' pushed ones are matched by version, with a
// short settle for the follow-ups. A pull that fails falls back to the
// pushed ones within the same bound.
//
// It imports tools, ide (the diagnostic type the agent reads the
// editor's in too), lspclient and tools/procgroup.
package lsp
