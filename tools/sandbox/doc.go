// Package sandbox runs commands under bubblewrap (bwrap) so that they can
// read the machine but write only where the sandbox mode allows: nowhere
// but a private /tmp in read-only, also the session roots in
// workspace-write (their .git/hooks, .git/config and .companion kept
// read-only). Network is cut off in both modes unless allowed.
//
// It owns the modes, the bwrap argument list (Args, a pure function) and
// the one-time check that bwrap can create its namespaces here (Sandbox).
// A sandboxed mode whose engine cannot run refuses commands: nothing runs
// unsandboxed by surprise. It imports no companion package.
package sandbox
