package checkpoint

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
)

// treeWriter writes trees through one `git mktree --batch`, started by the
// first write: each tree goes in as its entries and comes back as its id,
// so a directory can name the subdirectories written before it.
type treeWriter struct {
	r   *gitRunner
	ctx context.Context

	cmd    *exec.Cmd
	cancel context.CancelFunc
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
}

// write writes a tree of entries and returns its id. The objects the
// entries name are not looked up: they are in the shadow store or one it
// borrows from.
func (w *treeWriter) write(entries map[string]treeEntry) (string, error) {
	if w.cmd == nil {
		if err := w.start(); err != nil {
			return "", err
		}
	}
	var buf bytes.Buffer
	for name, e := range entries {
		typ := "blob"
		switch e.mode {
		case modeTree:
			typ = "tree"
		case "160000":
			typ = "commit"
		}
		fmt.Fprintf(&buf, "%s %s %s\t%s\x00", e.mode, typ, e.blob, name)
	}
	buf.WriteByte(0) // an empty record ends the tree
	if _, err := w.in.Write(buf.Bytes()); err != nil {
		return "", w.failed(err)
	}
	line, err := w.out.ReadString('\n')
	if err != nil {
		return "", w.failed(err)
	}
	id := strings.TrimSpace(line)
	if len(id) != 40 {
		return "", w.failed(fmt.Errorf("unexpected output %q", line))
	}
	return id, nil
}

func (w *treeWriter) start() error {
	bin, err := w.r.lookPath()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(w.ctx)
	cmd := w.r.command(ctx, bin, gitCall{args: []string{"mktree", "--batch", "-z", "--missing"}})
	cmd.Stderr = &w.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		cancel()
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return err
	}
	if err := cmd.Start(); err != nil {
		cancel()
		return fmt.Errorf("git mktree: %w", err)
	}
	w.cmd, w.cancel, w.in, w.out = cmd, cancel, in, bufio.NewReader(out)
	return nil
}

// failed stops git and returns the error with what git said.
func (w *treeWriter) failed(err error) error {
	w.cancel()
	w.cmd.Wait()
	w.cmd = nil
	if ctxErr := w.ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	return fmt.Errorf("git mktree: %w: %s", err, firstLine(w.stderr.String()))
}

// close ends git, if it was started, and reports how it ended.
func (w *treeWriter) close() error {
	if w.cmd == nil {
		return nil
	}
	cmd := w.cmd
	w.cmd = nil
	w.in.Close()
	err := cmd.Wait()
	w.cancel()
	if err != nil {
		return fmt.Errorf("git mktree: %w: %s", err, firstLine(w.stderr.String()))
	}
	return nil
}
