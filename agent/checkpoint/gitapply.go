package checkpoint

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// apply carries out plan in the work tree, through an os.Root so that no
// write or removal can leave it. It returns the paths removed and written.
// Nothing is changed unless every blob to write can be read (one borrowed
// from the project's store may have been pruned by git gc).
func (b *gitBackend) apply(ctx context.Context, plan []change) (removed, written []string, err error) {
	var writes []change
	var blobs []string
	for _, c := range plan {
		if c.mode != "" {
			writes = append(writes, c)
			blobs = append(blobs, c.blob)
		}
	}
	if err := b.r.checkBlobs(ctx, blobs); err != nil {
		return nil, nil, err
	}
	root, err := os.OpenRoot(b.r.workTree)
	if err != nil {
		return nil, nil, fmt.Errorf("open project root: %w", err)
	}
	defer root.Close()
	for _, c := range plan {
		if c.mode != "" {
			continue
		}
		if err := ctx.Err(); err != nil {
			return removed, written, err
		}
		gone, err := removePath(root, c.path)
		if err != nil {
			return removed, written, err
		}
		if gone {
			removed = append(removed, c.path)
		}
	}
	err = b.r.catBlobs(ctx, blobs, func(i int, content io.Reader) error {
		if err := writeGitEntry(root, writes[i], content); err != nil {
			return err
		}
		written = append(written, writes[i].path)
		return nil
	})
	return removed, written, err
}

// writeGitEntry puts one file of a snapshot tree back.
func writeGitEntry(root *os.Root, c change, content io.Reader) error {
	switch c.mode {
	case "120000":
		target, err := io.ReadAll(content)
		if err != nil {
			return err
		}
		return writeSymlink(root, c.path, string(target))
	case "100755", "100644":
		return writeFile(root, c.path, content, gitPerm(root, c.path, c.mode == "100755"))
	default:
		return fmt.Errorf("%w: %s has unknown mode %s", ErrCorrupt, c.path, c.mode)
	}
}

// checkBlobs fails with ErrCorrupt unless every blob of ids can be read
// (from the shadow store or a borrowed one).
func (r *gitRunner) checkBlobs(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	out, err := r.run(ctx, gitCall{args: []string{"cat-file", "--batch-check=%(objecttype)"},
		stdin: strings.NewReader(strings.Join(ids, "\n") + "\n")})
	if err != nil {
		return err
	}
	for i, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		if line != "blob" && i < len(ids) {
			return fmt.Errorf("%w: the content %s is gone (pruned from the project's repository?)", ErrCorrupt, ids[i])
		}
	}
	return nil
}

// catBlobs streams the blobs ids, in order, through fn from one
// `git cat-file --batch`. fn need not read all of its reader.
func (r *gitRunner) catBlobs(ctx context.Context, ids []string, fn func(i int, content io.Reader) error) error {
	return r.catObjects(ctx, ids, func(i int, _, typ string, content io.Reader) error {
		if typ != "blob" {
			return fmt.Errorf("%w: object %s is %s, not a blob", ErrCorrupt, ids[i], typ)
		}
		return fn(i, content)
	})
}

// catObjects streams the objects names (anything `git cat-file` resolves,
// such as tree:path), in order, through fn from one `git cat-file
// --batch`, with their id and type (type "missing", with no id and empty
// content, for a name that resolves to nothing). fn need not read all of
// its reader.
func (r *gitRunner) catObjects(ctx context.Context, names []string, fn func(i int, id, typ string, content io.Reader) error) error {
	if len(names) == 0 {
		return nil
	}
	bin, err := r.lookPath()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := r.command(ctx, bin, gitCall{args: []string{"cat-file", "--batch"},
		stdin: strings.NewReader(strings.Join(names, "\n") + "\n")})
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	if err := readBatch(bufio.NewReader(stdout), names, fn); err != nil {
		cancel()
		cmd.Wait()
		return err
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git cat-file: %w: %s", err, firstLine(stderr.String()))
	}
	return nil
}

// readBatch reads len(names) `cat-file --batch` answers from br.
func readBatch(br *bufio.Reader, names []string, fn func(i int, id, typ string, content io.Reader) error) error {
	for i, name := range names {
		header, err := br.ReadString('\n')
		if err != nil {
			return fmt.Errorf("git cat-file: %w", err)
		}
		header = strings.TrimSuffix(header, "\n")
		if header == name+" missing" || header == name+" ambiguous" {
			if err := fn(i, "", "missing", strings.NewReader("")); err != nil {
				return err
			}
			continue
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			return fmt.Errorf("%w: object %s: %s", ErrCorrupt, name, header)
		}
		size, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return fmt.Errorf("%w: object %s: %s", ErrCorrupt, name, header)
		}
		content := io.LimitReader(br, size)
		if err := fn(i, f[0], f[1], content); err != nil {
			return err
		}
		if _, err := io.Copy(io.Discard, content); err != nil {
			return fmt.Errorf("git cat-file: %w", err)
		}
		if _, err := br.Discard(1); err != nil {
			return fmt.Errorf("git cat-file: %w", err)
		}
	}
	return nil
}
