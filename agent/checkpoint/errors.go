package checkpoint

import "errors"

// Sentinel errors of the checkpoint store. Callers check them with errors.Is.
var (
	// ErrOutsideRoot is returned for a path that is not inside the project root.
	ErrOutsideRoot = errors.New("path is outside the project root")
	// ErrGitDir is returned for a path inside a .git directory: the
	// project's own repository is never snapshotted or restored.
	ErrGitDir = errors.New("path is inside a .git directory")
	// ErrStateInRoot is returned by Open when the state directory lies inside
	// the project: snapshots must never be written into the project.
	ErrStateInRoot = errors.New("checkpoint state directory is inside the project root")
	// ErrOtherProject is returned when the state directory already holds
	// the checkpoints of another project root: each project needs its own
	// (see StateDir).
	ErrOtherProject = errors.New("checkpoint state directory belongs to another project")
	// ErrNotFound is returned by Restore for an id that names no checkpoint.
	ErrNotFound = errors.New("no such checkpoint")
	// ErrAmbiguous is returned by Restore for an id prefix that matches
	// several checkpoints.
	ErrAmbiguous = errors.New("checkpoint id is ambiguous")
	// ErrNoGit is returned (and logged) when the git binary cannot be found;
	// the store then uses its file backend.
	ErrNoGit = errors.New("git is not available")
	// ErrBlocked is returned when a restore cannot put a file back because a
	// non-empty directory (or another file the store did not capture) is in
	// the way. Files already restored stay restored; the undo checkpoint
	// taken before the restore puts everything back.
	ErrBlocked = errors.New("a file or directory is in the way")
	// ErrCorrupt is returned when the store's own data is unreadable or
	// incomplete (a missing object, a malformed manifest).
	ErrCorrupt = errors.New("checkpoint data is damaged")
)
