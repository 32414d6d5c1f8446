// Package checkpoint snapshots a project's files before each change the
// agent makes, so that `/undo` and `/restore [id]` can put them back. It owns
// the checkpoint data under a state directory outside the project (the
// caller passes one per project; StateDir derives it from a base directory
// such as $XDG_STATE_HOME/companion/checkpoints and the root). It imports
// only the standard library (and golang.org/x/sys/windows for file locks on
// Windows) and runs the `git` binary; it knows nothing of tools, sessions or
// protocols.
//
// # Use
//
// Each project needs its own state directory: open the Store with
// StateDir(base, root), not with base itself.
//
// The agent calls Store.SaveFiles before a file edit, naming the paths it
// will touch, and Store.Save before any other mutating call (a shell
// command, an MCP tool), which snapshots the whole work tree. A session
// calls Store.Prepare when it opens: the work a first whole-tree snapshot
// would do (seed, first status, first tree) runs in the background, is
// interrupted by SaveFiles, List and Restore and resumed after them, and
// is waited for only by a Save that arrives while it runs. `/undo`
// restores the newest checkpoint; `/restore` lists checkpoints (Store.List,
// newest first) and restores one. Store.Restore first saves the current
// state as a checkpoint labelled "before restore of <id>"
// (Restoration.Undo), so a restore can itself be undone by restoring that
// checkpoint.
//
// # Git backend
//
// When git (2.25 or later) is installed, checkpoints are commits of a
// shadow repository: GIT_DIR is <state>/git and the work tree is the
// project root. The project's own .git is never written; what is read
// there is info/exclude, and the index, HEAD and objects for the seed
// below (git skips every .git entry of a work tree).
// Every git command gets an explicit
// environment: GIT_DIR, GIT_WORK_TREE, GIT_CONFIG_GLOBAL=/dev/null,
// GIT_CONFIG_NOSYSTEM=1, HOME set to the shadow repository (so no user
// ignore or attribute files), a fixed author and committer, literal
// pathspecs, and `-c` settings that disable hooks (core.hooksPath=/dev/null),
// fsmonitor, line-ending conversion and automatic gc. The shadow
// repository's info/attributes turns off every content conversion
// (text, eol, filters, ident, encodings), so files come back byte for byte.
//
// A snapshot of named paths only (SaveFiles) adds them to a fresh
// temporary index and commits its tree: its cost follows those files,
// never the size of the work tree. A snapshot of the whole work tree
// (Save) starts with one `git status` of the shadow repository (which
// honours the project's .gitignore files and, read only, its
// .git/info/exclude): it lists what differs from the shadow index, with
// git's untracked cache in the shadow index so that only directories
// changed since the last snapshot are read again. The tree of the index's
// entries is recorded with the index's checksum (a status that only
// refreshes stat data or the untracked cache carries the record along;
// any other change of the index voids it). With a record, the snapshot is
// that tree with the listed paths edited: their files hashed (`git
// hash-object`, or a temporary index when symlinks are among them), and
// only the directories above them read (`git cat-file --batch`) and
// written anew (`git mktree --batch`). The index is
// then neither updated nor written as a tree, so a snapshot costs its
// status plus the changes, whatever the size of the index; the changes
// since the index was last updated are listed again by each status. Past
// 1,000 such paths or 32 MiB, without a record, and in Store.Prepare, they
// go into the index instead (one update-index, as `git add --all` would
// do), write-tree writes it and the tree is recorded. The shadow HEAD is
// the newest snapshot built that way, so the status compares the index
// with a tree equal to it. Either way the ref refs/companion/checkpoints
// moves to the new commit last, and only from the commit it was built on,
// so a crash mid-save leaves every earlier checkpoint intact. The
// commit's metadata says which kind it is (Checkpoint.PathsOnly).
//
// The shadow index caches file stats, so only changed files are read.
// When the root is the top of a git work tree (a worktree and a submodule
// too, not a sparse checkout), the shadow index starts as a copy of the
// project's own index (kept with its modification time, for git's racy
// file check) whenever the project's HEAD has moved since the last copy,
// the way `git stash create` works: files git already knows are not read
// again, and their blobs are borrowed from the project's object store,
// which commands that read blobs get through
// GIT_ALTERNATE_OBJECT_DIRECTORIES (never an alternates file, and nothing
// is written there). Only entries equal to the HEAD commit's are kept:
// git keeps a commit's objects while any ref or reflog entry reaches it.
// Staged changes, conflicts, assume-unchanged and skip-worktree entries
// are dropped from the copy, so the next add reads those files and writes
// their blobs to the shadow store, as every new blob. If the project's
// history is rewritten and pruned (`git reflog expire` and `git gc
// --prune=now`), a borrowed blob can vanish: a restore that needs it then
// fails with ErrCorrupt before changing anything.
//
// A whole-tree snapshot covers changes made by shell commands too. Left
// out are: ignored files; untracked files larger than the size limit
// (WithMaxFileSize, default 10 MiB; once a file is in the snapshot it
// stays whatever its size, and tracked files are in it from the seed);
// nested repositories (untracked directories with their own .git). The
// last two are recomputed by every save and recorded in the commit, so a
// restore leaves them alone.
//
// Named paths are always kept exactly, even when ignored and whatever
// their size (the change is about to rewrite them): existing ones are
// force-added (and kept in the shadow index, so later whole-tree
// snapshots hold them too), and the commit message (a JSON line after the label)
// records the names, so a named path missing from the tree is known to
// have been absent. Named paths that cannot be kept (inside a nested
// repository, beyond a symlink, not a file or symlink, unreadable) are
// listed in Checkpoint.Skipped instead.
//
// Restoring checkpoint T gives each path the state recorded by the oldest
// checkpoint from T on that knows it: one that names it, or the first
// whole-tree snapshot W taken since T. Without such a W only named paths
// are compared and put back (their current state is snapshotted first in
// a temporary index, as the undo checkpoint), so a restore after edits
// costs what the edited files do, and changes the user made to other
// files are left alone. With W, the current state is staged, and the
// target tree is W's tree with the paths named before it put as they were
// then, completed for ignored paths that W neither holds nor names but a
// newer checkpoint named. The difference between the two trees is the
// plan: files that differ or are missing are written (content, and the
// executable bit; other permission bits of an existing file are kept),
// symlinks recreated, and files the target lacks removed, unless they are
// ignored now or were left out of W, and are not known to have been
// absent. Ignored files the snapshots do not hold are never touched.
// Before applying the plan, every blob it writes is checked to be
// readable, and the current state is committed as the undo checkpoint:
// the staged tree plus the planned files it lacks (ignored or large ones),
// with every planned path named, so undoing the restore is exact. The
// goal and undo trees are edits of snapshot trees, as above: a restore
// writes no index. Only the files that differ are written or removed;
// directories emptied by removals are removed, as git does.
//
// # File backend
//
// Without git (not installed, WithoutGit, or after any git failure for the
// rest of the Store's life), checkpoints hold only the named paths, in
// <state>/files: file contents stored once under objects/ by SHA-256, and a
// JSON manifest per checkpoint (manifests/<seq>-<id>.json) mapping each path
// to a file (hash and permission bits), a symlink (target), a directory
// (existence only) or absent. Save and SaveFiles are the same there, and
// cost what the named files do. Restoring T puts back every path named
// by T or a newer checkpoint, each from the oldest of those checkpoints
// naming it (its state before the first change since T): absent paths are
// deleted, and a directory only when empty. A shell command (no paths)
// therefore cannot be undone in this mode. Objects are written before the
// manifest, each by rename, so a crash leaves at worst unused objects.
//
// List shows the checkpoints of both backends, newest first; a restore
// stays within the target's backend.
//
// # Ids
//
// An id is the first 12 hex digits of the commit hash (git) or of the
// manifest's SHA-256 (files): short, stable, and Restore accepts any unique
// prefix of at least 4 characters.
//
// # Safety
//
// Paths given to Save must lie inside the root (ErrOutsideRoot) and outside
// any .git directory (ErrGitDir); Open refuses a state directory inside the
// project (ErrStateInRoot). The first Save records the real project root
// in <state>/root; a Store for another root on the same state directory
// gets ErrOtherProject from Save, List and Restore, so a shared directory
// can never restore one project's files into another. Restore writes and
// removes only through an os.Root on the project root, so nothing (..,
// symlinks leading out) can take it outside; files are written through a
// temporary file and a rename.
// Save, List and Restore on one Store are serialised by a mutex, and Save
// and Restore across processes by an OS file lock on <state>/lock, which
// also makes it safe to remove lock files a killed git left behind.
//
// Not handled: retention (checkpoints accumulate until the state directory
// is removed) and compaction (the shadow repository is never gc'ed); the
// content of nested repositories; empty directories with git. Whether a
// file is ignored is judged by the ignore rules in force at restore time,
// so a file that T's rules ignored but today's do not is removed by the
// restore (the undo checkpoint still holds it).
package checkpoint
