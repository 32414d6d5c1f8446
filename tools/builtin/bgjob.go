package builtin

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"companion/tools"
	"companion/tools/procgroup"
)

// cleanupTimeout bounds calls to the editor made while cleaning up
// (killing and releasing terminals), which must not wait forever on an
// editor that has gone away.
const cleanupTimeout = 5 * time.Second

// bgJob is one background command: a local process group writing to a log
// file, or an editor terminal.
type bgJob struct {
	command string
	dir     string
	started time.Time

	// Local: the process group, its log, and (when started here rather
	// than adopted) the shell and done, closed once it is reaped.
	pgid  int
	log   string
	cmd   *exec.Cmd
	done  <-chan struct{}
	grace time.Duration

	// Terminal: the editor terminal. mu guards released.
	term     tools.Terminal
	mu       sync.Mutex
	released bool
}

// jobOf finds the command with id in b.
func jobOf(b *tools.Background, id string) (*bgJob, bool) {
	j, ok := b.Get(id)
	bj, isCmd := j.(*bgJob)
	return bj, ok && isCmd
}

// state says whether the job runs and, once it has ended, how.
func (j *bgJob) state(ctx context.Context) (running bool, exit *tools.ExitStatus, err error) {
	switch {
	case j.term != nil:
		if j.isReleased() {
			return false, nil, nil
		}
		o, err := j.term.Output(ctx)
		if err != nil {
			return false, nil, fmt.Errorf("read terminal %s: %w", j.term.ID(), err)
		}
		return o.Exit == nil, o.Exit, nil
	case j.done != nil:
		select {
		case <-j.done:
			st := exitStatus(j.cmd.ProcessState)
			if procgroup.Alive(j.pgid) {
				return true, nil, nil // the shell ended; what it started runs on
			}
			return false, &st, nil
		default:
			return true, nil, nil
		}
	}
	return procgroup.Alive(j.pgid), nil, nil
}

// Kill stops the job: its whole process group, or its terminal, which is
// then released.
func (j *bgJob) Kill(ctx context.Context) error {
	if j.term == nil {
		stopGroup(j.pgid, j.grace, j.done)
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.released {
		return nil
	}
	j.released = true
	killErr := j.term.Kill(ctx)
	if err := j.term.Release(ctx); err != nil {
		return fmt.Errorf("release terminal %s: %w", j.term.ID(), err)
	}
	if killErr != nil {
		return fmt.Errorf("kill terminal %s: %w", j.term.ID(), killErr)
	}
	return nil
}

func (j *bgJob) isReleased() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.released
}

// output returns up to the last maxBytes of the job's output.
func (j *bgJob) output(ctx context.Context, maxBytes int) (string, error) {
	if j.term != nil {
		if j.isReleased() {
			return "", errTerminalReleased
		}
		o, err := j.term.Output(ctx)
		if err != nil {
			return "", fmt.Errorf("read terminal %s: %w", j.term.ID(), err)
		}
		s := o.Output
		if len(s) > maxBytes {
			s = s[len(s)-maxBytes:]
		}
		return s, nil
	}
	return readTail(j.log, maxBytes)
}

// readTail reads at most the last maxBytes of a file.
func readTail(path string, maxBytes int) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("read the output log: %w", err)
	}
	defer func() { _ = f.Close() }()
	st, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("read the output log: %w", err)
	}
	off := max(st.Size()-int64(maxBytes), 0)
	buf := make([]byte, st.Size()-off)
	n, err := f.ReadAt(buf, off)
	if err != nil && err != io.EOF {
		return "", fmt.Errorf("read the output log: %w", err)
	}
	return string(buf[:n]), nil
}

// lastLines returns the last n lines of s, and whether lines were left
// out. A first line that may have been cut by a byte limit counts as left
// out when cut is true.
func lastLines(s string, n int, cut bool) (string, bool) {
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	if cut && len(lines) > 1 {
		lines = lines[1:]
	}
	if len(lines) <= n {
		return strings.Join(lines, "\n"), cut
	}
	return strings.Join(lines[len(lines)-n:], "\n"), true
}
