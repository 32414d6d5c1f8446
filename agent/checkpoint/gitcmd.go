package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// gitConfig returns the -c settings every git command runs with: no hooks,
// no fsmonitor or other helper processes, no line-ending conversion, no
// background maintenance, plain output. core.untrackedCache is left unset
// ("keep"): the status of worktreeChanges turns it on, and a "false" here
// would make every other command that writes the index drop it.
func gitConfig() []string {
	return []string{
		"core.bare=false",
		"core.hooksPath=/dev/null",
		"core.autocrlf=false",
		"core.safecrlf=false",
		"core.fsmonitor=false",
		"index.skipHash=false", // indexTree reads the index's checksum
		"core.splitIndex=false",
		"core.sparseCheckout=false",
		"core.quotePath=false",
		"commit.gpgSign=false",
		"gc.auto=0",
		"maintenance.auto=false",
		"advice.addEmbeddedRepo=false",
		"advice.addIgnoredFile=false",
		"protocol.allow=never",
	}
}

// noIndex names an index file that never exists, for commands that read
// the index without needing it.
const noIndex = "index.none"

// gitIdentity is the fixed author and committer of checkpoint commits.
const (
	gitName  = "companion"
	gitEmail = "companion@localhost"
)

// gitWaitDelay bounds how long a cancelled git may keep its pipes open.
const gitWaitDelay = 5 * time.Second

// gitRunner runs the git binary against the shadow repository with an
// explicit environment: nothing of the user's git configuration, hooks or
// GIT_* variables reaches it.
type gitRunner struct {
	bin      string // as configured; resolved by lookPath
	gitDir   string
	workTree string
	log      *slog.Logger
	// borrow are the object directories of the project's own repository
	// the shadow repository's snapshots refer to (see seedIfStale); every
	// command on the shadow repository may read objects there.
	borrow []string
}

// lookPath resolves the git binary, wrapping ErrNoGit when it is missing.
func (r *gitRunner) lookPath() (string, error) {
	p, err := exec.LookPath(r.bin)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrNoGit, err)
	}
	return p, nil
}

// env is the complete environment of a git command c: pathspecs are
// literal (no globs or magic) unless c.noLiteral, c.index, when set,
// replaces the shadow repository's own index, c.repo the shadow
// repository itself, and c.borrow are object directories read besides
// the shadow repository's own.
func (r *gitRunner) env(c gitCall) []string {
	gitDir := r.gitDir
	if c.repo != "" {
		gitDir = c.repo
	}
	env := []string{
		"GIT_DIR=" + gitDir,
		"GIT_WORK_TREE=" + r.workTree,
		"HOME=" + r.gitDir, // no ~/.config/git/{ignore,attributes}
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_ATTR_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=" + gitName,
		"GIT_AUTHOR_EMAIL=" + gitEmail,
		"GIT_COMMITTER_NAME=" + gitName,
		"GIT_COMMITTER_EMAIL=" + gitEmail,
		"GIT_TERMINAL_PROMPT=0",
		"GIT_NO_REPLACE_OBJECTS=1",
		"LC_ALL=C",
	}
	if c.index != "" {
		env = append(env, "GIT_INDEX_FILE="+c.index)
	}
	if !c.noLiteral {
		env = append(env, "GIT_LITERAL_PATHSPECS=1")
	}
	if borrow := c.borrow; c.repo == "" && !c.ownStore && len(borrow)+len(r.borrow) > 0 {
		borrow = append(slices.Clone(r.borrow), borrow...)
		env = append(env, "GIT_ALTERNATE_OBJECT_DIRECTORIES="+strings.Join(borrow, string(os.PathListSeparator)))
	}
	for _, k := range []string{"PATH", "TMPDIR", "SYSTEMROOT", "TEMP", "TMP"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// gitCall is one git invocation.
type gitCall struct {
	args  []string
	stdin io.Reader
	index string // GIT_INDEX_FILE override
	// noLiteral is for commands that reject the literal-pathspec setting
	// (check-ignore takes paths, not pathspecs).
	noLiteral bool
	// repo, when set, is the git directory to use instead of the shadow
	// repository (the project's own, read only).
	repo string
	// borrow are object directories (the project's own store) a command
	// may read objects from besides gitRunner.borrow; nothing is ever
	// written there (git writes new objects to the shadow store only).
	borrow []string
	// ownStore is for commands that add blobs (git add): they look up and
	// write objects in the shadow store only, so every blob a snapshot
	// adds is the shadow store's own, and the project's store is not
	// touched (git refreshes the time of an object it finds when writing).
	ownStore bool
	// config are -c settings for this command only, after gitConfig's.
	config []string
}

// run runs c and returns its standard output. A failure is an error naming
// the subcommand and carrying git's first line of standard error.
func (r *gitRunner) run(ctx context.Context, c gitCall) ([]byte, error) {
	bin, err := r.lookPath()
	if err != nil {
		return nil, err
	}
	cmd := r.command(ctx, bin, c)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	r.log.Debug("checkpoint: git", "cmd", c.args[0], "took", time.Since(start), "err", err)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return stdout.Bytes(), fmt.Errorf("git %s: %w: %s", c.args[0], err, firstLine(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// command builds the exec.Cmd of c, run in the work tree.
func (r *gitRunner) command(ctx context.Context, bin string, c gitCall) *exec.Cmd {
	config := append(gitConfig(), c.config...)
	args := make([]string, 0, 2*len(config)+len(c.args))
	for _, kv := range config {
		args = append(args, "-c", kv)
	}
	// The project's own info/exclude is read (never written): files the
	// user keeps out of git stay out of snapshots too.
	if common := commonDir(r.workTree); common != "" && fileExists(filepath.Join(common, "info", "exclude")) {
		args = append(args, "-c", "core.excludesFile="+filepath.Join(common, "info", "exclude"))
	}
	cmd := exec.CommandContext(ctx, bin, append(args, c.args...)...)
	cmd.Env = r.env(c)
	cmd.Dir = r.workTree
	cmd.Stdin = c.stdin
	cmd.WaitDelay = gitWaitDelay
	return cmd
}

// fileExists reports whether name is an existing regular file.
func fileExists(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.Mode().IsRegular()
}

// exitCode returns the exit status carried by err, or -1.
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// firstLine returns the first non-empty line of s, trimmed.
func firstLine(s string) string {
	for line := range strings.SplitSeq(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
	}
	return "(no message)"
}

// nulJoin joins paths as a NUL-terminated list for --stdin -z style input.
func nulJoin(paths []string) *strings.Reader {
	var b strings.Builder
	for _, p := range paths {
		b.WriteString(p)
		b.WriteByte(0)
	}
	return strings.NewReader(b.String())
}

// nulSplit splits NUL-terminated output into its fields.
func nulSplit(out []byte) []string {
	s := strings.TrimSuffix(string(out), "\x00")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}
