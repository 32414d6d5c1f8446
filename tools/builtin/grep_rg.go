package builtin

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// rgStderrCap bounds how much of rg's stderr is kept for error messages.
const rgStderrCap = 4 << 10

// rgArgs builds ripgrep's command line. rg runs in q.dir and searches "."
// with all its threads, in no particular order; each file's matches stop
// at limit+1. rg is given no size limit, since it would skip files without
// a word: the matches of files over it are withheld here and the files
// named instead (a large file without a match needs no note). Ignore
// handling is rgIgnoreArgs'; the results are then filtered by the same
// include glob and ignore rules as the Go search.
func rgArgs(q grepQuery) []string {
	args := append([]string{"--json", "--max-count", strconv.Itoa(q.limit + 1)}, rgIgnoreArgs(true)...)
	if q.include != "" {
		args = append(args, "--glob", q.include)
	}
	return append(args, "--regexp", q.re.String(), "--", ".")
}

// rgMessage is the part of one line of `rg --json` output that grep reads.
type rgMessage struct {
	Type string `json:"type"`
	Data struct {
		Path       rgData `json:"path"`
		Lines      rgData `json:"lines"`
		LineNumber int    `json:"line_number"`
	} `json:"data"`
}

// rgData is text or, when it is not valid UTF-8, base64 bytes.
type rgData struct {
	Text  string `json:"text"`
	Bytes string `json:"bytes"`
}

func (d rgData) String() string {
	if d.Bytes == "" {
		return d.Text
	}
	b, err := base64.StdEncoding.DecodeString(d.Bytes)
	if err != nil {
		return d.Text
	}
	return string(b)
}

// searchRipgrep runs rg and returns the first limit+1 matches in walk
// order (path by path, as the Go search gives them), and the files it
// skipped for their size. rg is killed when ctx is cancelled.
func searchRipgrep(parent context.Context, rg string, q grepQuery) ([]grepLine, grepLarge, error) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	cmd := exec.CommandContext(ctx, rg, rgArgs(q)...)
	cmd.Dir = q.dir
	cmd.WaitDelay = time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, grepLarge{}, errors.Join(errRipgrep, err)
	}
	stderr := &cappedBuffer{max: rgStderrCap}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, grepLarge{}, errors.Join(errRipgrep, err)
	}
	filter := newIgnoreFilter(newIgnoreTree(q.root), relComponents(q.root, q.dir))
	top := &grepTop{k: q.limit + 1}
	largePaths, readErr := readRipgrep(stdout, q, filter, top)
	if readErr != nil {
		cancel()
	}
	waitErr := cmd.Wait()
	switch {
	case parent.Err() != nil:
		return nil, grepLarge{}, parent.Err()
	case readErr != nil:
		return nil, grepLarge{}, fmt.Errorf("%w: reading output: %w", errRipgrep, readErr)
	}
	var exit *exec.ExitError
	if waitErr != nil && !(errors.As(waitErr, &exit) && exit.ExitCode() == 1) && top.total == 0 {
		return nil, grepLarge{}, fmt.Errorf("%w: %w: %s", errRipgrep, waitErr, strings.TrimSpace(stderr.String()))
	}
	return top.lines(), largeFiles(q, filter, largePaths), nil
}

// readRipgrep reads rg's JSON stream, one file's messages after another,
// offering the matches of each file that passes the include glob and the
// ignore rules to top; it returns the files with matches that are over
// the size limit instead.
func readRipgrep(r io.Reader, q grepQuery, filter *ignoreFilter, top *grepTop) (large []string, _ error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var file string
	var lines []grepLine
	flush := func() {
		if len(lines) > 0 {
			rel := strings.Split(file, "/")
			switch {
			case !q.included(rel) || filter.ignored(rel):
			case fileSize(filepath.Join(q.dir, file)) > q.maxFileSize:
				large = append(large, file)
			default:
				top.add(file, lines)
			}
		}
		lines = nil
	}
	for {
		line, err := br.ReadBytes('\n')
		if bytes.HasPrefix(line, []byte(`{"type":"match"`)) {
			var m rgMessage
			if jerr := json.Unmarshal(line, &m); jerr != nil {
				return large, jerr
			}
			path := strings.TrimPrefix(filepath.ToSlash(m.Data.Path.String()), "./")
			if path != file {
				flush()
				file = path
			}
			if top.wants(path) || len(lines) == 0 {
				text := strings.TrimSuffix(m.Data.Lines.String(), "\n")
				lines = append(lines, grepLine{abs: filepath.Join(q.dir, path), line: m.Data.LineNumber, text: text})
			}
		}
		if errors.Is(err, io.EOF) {
			flush()
			return large, nil
		}
		if err != nil {
			return large, err
		}
	}
}

// fileSize is a file's size, not following a symbolic link; 0 when it
// cannot be read.
func fileSize(abs string) int64 {
	fi, err := os.Lstat(abs)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// largeFiles lists the files whose matches were withheld for their size,
// in walk order.
func largeFiles(q grepQuery, filter *ignoreFilter, paths []string) grepLarge {
	slices.SortFunc(paths, comparePaths)
	var large grepLarge
	for _, p := range paths {
		rel := strings.Split(p, "/")
		if q.included(rel) && !filter.ignored(rel) {
			large.add(filepath.Join(q.dir, p))
		}
	}
	return large
}

// cappedBuffer keeps the first max bytes written to it and drops the rest.
type cappedBuffer struct {
	max int
	buf bytes.Buffer
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (b *cappedBuffer) String() string { return b.buf.String() }
