package builtin

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"companion/tools"
)

// captured is a command's output as the model gets it: all of it when
// small, else its head and tail with the cut marked.
type captured struct {
	text string
	// total is the size of the whole output in bytes.
	total     int64
	truncated bool
	// file holds the whole output when truncated.
	file string
}

// logDir returns the directory where command output is saved, creating
// it: StateDir/shell, or companion-<pid> in the system temp directory.
func logDir(env *tools.Env) (string, error) {
	dir := filepath.Join(env.StateDir, "shell")
	if env.StateDir == "" {
		dir = filepath.Join(os.TempDir(), fmt.Sprintf("companion-%d", os.Getpid()))
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create the command log directory: %w", err)
	}
	return dir, nil
}

// newLogFile creates a file for one command's output.
func newLogFile(env *tools.Env) (*os.File, error) {
	dir, err := logDir(env)
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, "cmd-*.log")
	if err != nil {
		return nil, fmt.Errorf("create a command log: %w", err)
	}
	return f, nil
}

// captureFile reads the head and tail of a command's log: at most
// head+tail bytes are read, whatever the file's size.
func captureFile(path string, head, tail int) (captured, error) {
	f, err := os.Open(path)
	if err != nil {
		return captured{}, fmt.Errorf("read the command log: %w", err)
	}
	defer func() { _ = f.Close() }()
	st, err := f.Stat()
	if err != nil {
		return captured{}, fmt.Errorf("read the command log: %w", err)
	}
	size := st.Size()
	if size <= int64(head+tail) {
		data, err := io.ReadAll(io.LimitReader(f, size))
		if err != nil {
			return captured{}, fmt.Errorf("read the command log: %w", err)
		}
		return captured{text: cleanText(data), total: size}, nil
	}
	h := make([]byte, head)
	t := make([]byte, tail)
	if _, err := f.ReadAt(h, 0); err != nil {
		return captured{}, fmt.Errorf("read the command log: %w", err)
	}
	if _, err := f.ReadAt(t, size-int64(tail)); err != nil && err != io.EOF {
		return captured{}, fmt.Errorf("read the command log: %w", err)
	}
	return captured{text: joinCut(h, t, size), total: size, truncated: true, file: path}, nil
}

// capText keeps the head and tail of s when it is longer than both.
func capText(s string, head, tail int) (string, bool) {
	if len(s) <= head+tail {
		return cleanText([]byte(s)), false
	}
	return joinCut([]byte(s[:head]), []byte(s[len(s)-tail:]), int64(len(s))), true
}

// joinCut joins a head and a tail with a marker saying how much is left
// out. Neither is cut inside a character, and where a line break lies near
// the cut, the cut moves to it so whole lines are shown.
func joinCut(head, tail []byte, total int64) string {
	head = head[:completeRunes(head)]
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 && i >= len(head)*3/4 {
		head = head[:i+1]
	}
	for i := 0; i < utf8.UTFMax && len(tail) > 0 && !utf8.RuneStart(tail[0]); i++ {
		tail = tail[1:]
	}
	if j := bytes.IndexByte(tail, '\n'); j >= 0 && j < len(tail)/4 {
		tail = tail[j+1:]
	}
	cut := total - int64(len(head)) - int64(len(tail))
	sep := "\n"
	if len(head) == 0 || head[len(head)-1] == '\n' {
		sep = ""
	}
	return cleanText(head) + sep + fmt.Sprintf("[... %s of output cut here ...]\n", tools.FormatSize(cut)) + cleanText(tail)
}

// completeRunes returns the length of the longest prefix of b that does
// not end inside a UTF-8 character.
func completeRunes(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if !utf8.RuneStart(b[i]) {
			continue
		}
		if utf8.FullRune(b[i:]) {
			return len(b)
		}
		return i
	}
	return len(b)
}

// cleanText makes output safe to hand on: invalid UTF-8 (binary output)
// becomes U+FFFD.
func cleanText(b []byte) string {
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// streamer passes a growing log file on to an Output while the command
// runs, one Write per poll, up to a limit; past it the user waits for the
// result. It reads only what it passes on, so it costs nothing past the
// limit but a stat per poll.
type streamer struct {
	f     *os.File
	out   tools.Output
	limit int64
	// size is the file's size at the last poll; sent is how much of it
	// was passed on (or held in pending, an incomplete character).
	size, sent int64
	pending    []byte
	noted      bool
}

// newStreamer opens the log at path for streaming to out.
func newStreamer(path string, out tools.Output, limit int64) (*streamer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("follow the command log: %w", err)
	}
	return &streamer{f: f, out: out, limit: limit}, nil
}

func (s *streamer) close() { _ = s.f.Close() }

// poll passes on what the file gained since the last poll and reports
// whether it grew.
func (s *streamer) poll() bool {
	st, err := s.f.Stat()
	if err != nil || st.Size() <= s.size {
		return false
	}
	s.size = st.Size()
	if end := min(s.size, s.limit); s.sent < end {
		chunk := make([]byte, end-s.sent)
		n, _ := s.f.ReadAt(chunk, s.sent)
		s.sent += int64(n)
		data := append(s.pending, chunk[:n]...)
		whole := completeRunes(data)
		if whole > 0 {
			s.out.Write(cleanText(data[:whole]))
		}
		s.pending = append([]byte(nil), data[whole:]...)
	}
	if s.size > s.limit && !s.noted {
		s.noted = true
		s.out.Write(fmt.Sprintf("\n[... live output stops after %s; the result shows the end ...]\n", tools.FormatSize(s.limit)))
	}
	return true
}
