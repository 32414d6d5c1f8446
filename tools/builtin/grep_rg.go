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
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// rgStderrCap bounds how much of rg's stderr is kept for error messages.
const rgStderrCap = 4 << 10

// rgArgs builds ripgrep's command line. rg runs in q.dir and searches ".".
// Its own ignore handling is narrowed to what the Go search does (nested
// .gitignore files, with or without a git repository); the results are then
// filtered by the same include glob and ignore rules as the Go search, which
// adds .geminiignore files and the ignore files between the root and q.dir.
func rgArgs(q grepQuery) []string {
	args := []string{
		"--json", "--no-config", "--hidden", "--sort", "path",
		"--no-require-git", "--no-ignore-parent", "--no-ignore-global",
		"--no-ignore-exclude", "--no-ignore-dot",
		"--max-filesize", strconv.FormatInt(q.maxFileSize, 10),
	}
	if q.include != "" {
		args = append(args, "--glob", q.include)
	}
	return append(args, "--glob", "!"+gitDir, "--regexp", q.re.String(), "--", ".")
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

// searchRipgrep runs rg and returns up to limit+1 matches in path order. rg
// is killed as soon as enough matches are in, or when ctx is cancelled.
func searchRipgrep(parent context.Context, rg string, q grepQuery) ([]grepLine, error) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	cmd := exec.CommandContext(ctx, rg, rgArgs(q)...)
	cmd.Dir = q.dir
	cmd.WaitDelay = time.Second
	stderr := &cappedBuffer{max: rgStderrCap}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errRipgrep, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: %w", errRipgrep, err)
	}
	out, readErr := readRipgrep(stdout, q)
	full := len(out) > q.limit
	cancel() // kills rg if it is still running: we have all we need
	waitErr := cmd.Wait()
	switch {
	case parent.Err() != nil:
		return nil, parent.Err()
	case full:
		return out, nil
	case readErr != nil:
		return nil, fmt.Errorf("%w: reading output: %w", errRipgrep, readErr)
	}
	var exit *exec.ExitError
	if errors.As(waitErr, &exit) && exit.ExitCode() == 1 {
		return out, nil // no match
	}
	if waitErr != nil && len(out) == 0 {
		return nil, fmt.Errorf("%w: %w: %s", errRipgrep, waitErr, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// readRipgrep reads rg's JSON stream, keeping the matches in files that pass
// the include glob and ignore rules, until limit+1 are in.
func readRipgrep(r io.Reader, q grepQuery) ([]grepLine, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	ignore := newIgnoreTree(q.root)
	fromRoot := relComponents(q.root, q.dir)
	var out []grepLine
	for len(out) <= q.limit {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			var m rgMessage
			if jerr := json.Unmarshal(line, &m); jerr != nil {
				return out, jerr
			}
			if m.Type == "match" {
				path := strings.TrimPrefix(filepath.ToSlash(m.Data.Path.String()), "./")
				rel := strings.Split(path, "/")
				if q.included(rel) && !ignore.ignored(append(fromRoot[:len(fromRoot):len(fromRoot)], rel...), false) {
					text := strings.TrimSuffix(m.Data.Lines.String(), "\n")
					out = append(out, grepLine{abs: filepath.Join(q.dir, path), line: m.Data.LineNumber, text: text})
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
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
