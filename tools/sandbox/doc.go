// Package sandbox confines commands so that they can read the machine but
// write only where the sandbox mode allows: nowhere but a private
// temporary folder in read-only, also the session roots in
// workspace-write. A root's .git entry and .companion, and in .git the
// hooks, config, commondir, index, modules and worktrees, are guarded
// whether they exist or not: a command can neither write, rename, remove,
// replace nor create them (a planted git config or hook, a commondir
// pointing at one, a submodule registered in the index, or companion
// settings, would run code outside the sandbox). As commondir is missing
// in an ordinary repository, the top of .git is read-only on Linux: git
// commands that write the index or a lock file there fail. Network is cut off in both modes unless allowed, for the
// sandbox or for one command (WrapWith). Commands keep no capability, and
// companion makes itself non-dumpable (NoDump), so no command reads its
// environment through /proc. docs/sandbox.md says what each backend
// leaves uncovered.
//
// The backend is chosen once (Available, Backend), by a Prober that a
// process shares among its sandboxes, or by each Sandbox without one:
//
//   - bwrap (Linux): bubblewrap with mount, network and pid namespaces
//     and no capability (Args, a pure function), when it can create them
//     here. Each guarded entry is pinned by a mount of its own, which
//     cannot be renamed or removed; a mount needs a path that exists, so
//     WrapWith first makes a repository's missing .git/hooks, .git/config
//     and an empty .companion, and a root without .git gets a read-only
//     top level (its entries bound writable one by one);
//   - landlock (Linux, when bwrap is missing or user namespaces are off):
//     companion re-executes itself as `companion __sandbox` (RunHelper),
//     which sets no_new_privs, RLIMIT_NPROC and a private TMPDIR, drops
//     every capability, confines its thread with a Landlock ruleset and a
//     seccomp filter (sockets other than AF_UNIX and io_uring refused
//     without network; setsid, setpgid and TIOCSTI always), then executes
//     the command in its place;
//   - seatbelt (macOS): sandbox-exec with a profile from seatbeltProfile.
//
// Windows has none. A sandboxed mode with no backend refuses commands:
// nothing runs unsandboxed by surprise. COMPANION_SANDBOX_BACKEND, from
// companion's environment only, forces a backend.
//
// What Landlock cannot do that bubblewrap does (LandlockLimits says it in
// a stopped command's result): /tmp is neither private nor writable, only
// $TMPDIR is; Landlock rights cover whole hierarchies and every name in a
// folder, so in every root only the entries that exist when the command
// starts are writable (save the guarded ones) and nothing can be created,
// removed or renamed at the root's top level or in .git itself (git add
// and commit fail there); the network is cut by refusing sockets, not by
// an empty network namespace; there is no pid namespace, so the
// process-group kill (with setsid and setpgid refused) is what stops a
// command's processes, and /proc shows companion (its environment is
// closed by NoDump, no capability and Landlock's ptrace scope). Both
// backends leave Unix sockets reachable by path.
//
// It imports no companion package.
package sandbox
