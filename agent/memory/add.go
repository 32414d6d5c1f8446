package memory

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"companion/tools"
)

// AddedSection is the heading facts are appended under.
const AddedSection = "## Added Memories"

// AddUserMemory appends fact as a list item under the AddedSection heading of
// the main memory file (the first configured file name) in userDir, creating
// the file and the section when missing. The write is atomic. Call Refresh
// to see the fact in Text.
func (m *Memory) AddUserMemory(userDir, fact string) error {
	return AppendFact(filepath.Join(userDir, m.opts.FileNames[0]), fact)
}

// AppendFact appends fact as "- fact" under the AddedSection heading of the
// file at path, creating the file (and its directory) and the section when
// missing. The write is atomic and keeps the file's mode. The error wraps
// ErrEmptyFact when fact is blank.
func AppendFact(path, fact string) error {
	old, mode, err := readMemoryFile(path)
	if err != nil {
		return err
	}
	text, err := withFact(deref(old), fact)
	if err != nil {
		return err
	}
	if err := tools.WriteFileAtomic(path, []byte(text), mode); err != nil {
		return fmt.Errorf("memory: save fact: %w", err)
	}
	return nil
}

// readMemoryFile returns a memory file's text (nil when it does not exist)
// and the mode to write it with.
func readMemoryFile(path string) (*string, fs.FileMode, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0o644, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("memory: read %s: %w", path, err)
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	text := string(data)
	return &text, mode, nil
}

// deref returns *s, or "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// withFact returns text with "- fact" appended to the end of its
// AddedSection, adding the section at the end when there is none. Line
// endings (LF or CRLF) are kept; the result ends with one line end.
func withFact(text, fact string) (string, error) {
	fact = cleanFact(fact)
	if fact == "" {
		return "", ErrEmptyFact
	}
	eol := "\n"
	if strings.Contains(text, "\r\n") {
		eol = "\r\n"
		text = strings.ReplaceAll(text, "\r\n", "\n")
	}
	body := strings.TrimRight(text, "\n \t")
	var lines []string
	if body != "" {
		lines = strings.Split(body, "\n")
	}
	item := "- " + fact
	start := sectionLine(lines)
	if start < 0 {
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, AddedSection, "", item)
		return strings.Join(lines, eol) + eol, nil
	}
	end := start + 1
	for end < len(lines) && !isHeading(lines[end]) {
		end++
	}
	last := end - 1
	for last > start && strings.TrimSpace(lines[last]) == "" {
		last--
	}
	insert := []string{item}
	if last == start {
		insert = []string{"", item}
	}
	if end < len(lines) && last+1 == end {
		insert = append(insert, "")
	}
	lines = append(lines[:last+1], append(insert, lines[last+1:]...)...)
	return strings.Join(lines, eol) + eol, nil
}

// cleanFact makes fact one list item's text: one line, no list marker.
func cleanFact(fact string) string {
	fact = strings.Join(strings.Fields(fact), " ")
	for _, marker := range []string{"- ", "* "} {
		fact = strings.TrimPrefix(fact, marker)
	}
	if fact == "-" || fact == "*" {
		return ""
	}
	return fact
}

// sectionLine returns the index of the AddedSection heading, or -1.
func sectionLine(lines []string) int {
	var f fence
	for i, l := range lines {
		if !f.code(l) && strings.TrimSpace(l) == AddedSection {
			return i
		}
	}
	return -1
}

// isHeading reports whether a markdown line is an ATX heading.
func isHeading(line string) bool {
	t := strings.TrimLeft(line, "#")
	n := len(line) - len(t)
	return n >= 1 && n <= 6 && (t == "" || t[0] == ' ' || t[0] == '\t')
}
