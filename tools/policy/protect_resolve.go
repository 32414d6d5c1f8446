package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxLinks bounds the symbolic links followed while resolving one path, as
// the kernel does (Linux gives up after 40).
const maxLinks = 40

// kernelPath returns the file the kernel reaches when a process whose
// working directory is dir opens path: one component at a time, following
// each symbolic link as it is met, so that "link/.." is the parent of
// link's target and not dir. A dangling link is followed to where it
// points (opening it for writing creates its target). Components that do
// not exist are kept as written. dir must be absolute. Paths through /proc
// or /dev/fd are an error.
func kernelPath(dir, path string) (string, error) {
	if !filepath.IsAbs(path) {
		path = dir + string(filepath.Separator) + path
	}
	return kernelPathIn(string(filepath.Separator), path)
}

// kernelPathIn is kernelPath for a dir that is already resolved (absolute,
// no symbolic links, as commandDir returns it), which it does not walk
// again: a command's arguments are resolved from one walk of its folder.
func kernelPathIn(dir, path string) (string, error) {
	cur := dir
	if filepath.IsAbs(path) {
		cur = string(filepath.Separator)
	} else if processRelative(dir) {
		return "", fmt.Errorf("%s is relative to %s, which depends on the process that opens it", path, dir)
	}
	pending := splitPath(path)
	links := 0
	for len(pending) > 0 {
		name := pending[0]
		pending = pending[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, name)
		if processRelative(next) {
			// Links there name the process that opens them (the shell,
			// not companion): where they lead cannot be told from here.
			return "", fmt.Errorf("%s goes through %s, which depends on the process that opens it", path, next)
		}
		fi, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission), err == nil && fi.Mode()&fs.ModeSymlink == 0:
			cur = next
			continue
		case err != nil:
			return "", fmt.Errorf("resolve %s: %w", path, err)
		}
		if links++; links > maxLinks {
			return "", fmt.Errorf("resolve %s: too many levels of symbolic links", path)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", fmt.Errorf("resolve %s: %w", path, err)
		}
		if filepath.IsAbs(target) {
			cur = string(filepath.Separator)
		}
		pending = append(splitPath(target), pending...)
	}
	return cur, nil
}

// splitPath splits a path into its components; empty ones stand for
// repeated or leading separators and are skipped by kernelPath.
func splitPath(p string) []string {
	return strings.Split(filepath.ToSlash(p), "/")
}

// processRelative reports whether abs lies in /proc or /dev/fd.
func processRelative(abs string) bool {
	slash := filepath.ToSlash(abs)
	for _, dir := range []string{"/proc", "/dev/fd"} {
		if slash == dir || strings.HasPrefix(slash, dir+"/") {
			return true
		}
	}
	return false
}
