// Package sandbox confines commands so that they can read the machine but
// write only where the sandbox mode allows: nowhere but a private
// temporary folder in read-only, also the session roots in
// workspace-write (their .git/hooks, .git/config and .companion kept
// read-only). Network is cut off in both modes unless allowed, for the
// sandbox or for one command (WrapWith).
//
// The backend is chosen once (Available, Backend), by a Prober that a
// process shares among its sandboxes, or by each Sandbox without one:
//
//   - bwrap (Linux): bubblewrap with mount, network and pid namespaces
//     (Args, a pure function), when it can create them here;
//   - landlock (Linux, when bwrap is missing or user namespaces are off):
//     companion re-executes itself as `companion __sandbox` (RunHelper),
//     which sets no_new_privs, RLIMIT_NPROC and a private TMPDIR, confines
//     its thread with a Landlock ruleset and a seccomp filter (sockets
//     other than AF_UNIX and io_uring refused without network; setsid,
//     setpgid and TIOCSTI always), then executes the command in its place;
//   - seatbelt (macOS): sandbox-exec with a profile from seatbeltProfile.
//
// Windows has none. A sandboxed mode with no backend refuses commands:
// nothing runs unsandboxed by surprise. COMPANION_SANDBOX_BACKEND, from
// companion's environment only, forces a backend.
//
// What Landlock cannot do that bubblewrap does (LandlockLimits says it in
// a stopped command's result): /tmp is neither private nor writable, only
// $TMPDIR is; Landlock rights cover whole hierarchies, so in a root
// holding .git or .companion only the entries that exist when the command
// starts are writable (save the protected ones) and nothing can be
// created, removed or renamed at the root's top level or in .git itself
// (git add and commit fail there); the network is cut by refusing
// sockets, not by an empty network namespace; there is no pid namespace,
// so the process-group kill (with setsid and setpgid refused) is what
// stops a command's processes. Both backends leave Unix sockets reachable
// by path.
//
// It imports no companion package.
package sandbox
