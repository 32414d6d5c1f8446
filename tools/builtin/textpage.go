package builtin

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"unicode/utf8"
)

// lineCutMarker ends a line read_file cut short.
const lineCutMarker = "... [line cut]"

// sniffLen is how much of a file is inspected to tell text from binary.
const sniffLen = 8 << 10

// page is a window of lines from a text file.
type page struct {
	// lines are the lines shown, without line endings.
	lines []string
	// total is the number of lines in the whole file.
	total int
	// cut counts the shown lines that were cut short.
	cut int
	// binary is set when the content is not text; nothing else is filled.
	binary bool
}

// readPage reads lines [offset, offset+limit) of r, cutting lines longer than
// maxChars characters, and counts the lines of the whole input.
func readPage(ctx context.Context, r io.Reader, offset, limit, maxChars int) (page, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(sniffLen)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return page{}, err
	}
	if looksBinary(head) {
		return page{binary: true}, nil
	}
	var pg page
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return page{}, ctx.Err()
		}
		keep := 0
		if n >= offset && len(pg.lines) < limit {
			keep = maxChars*utf8.UTFMax + 2
		}
		line, ok, err := readLine(br, keep)
		if err != nil {
			return page{}, err
		}
		if !ok {
			return pg, nil
		}
		pg.total++
		if keep > 0 {
			s, cut := cutLine(line, maxChars)
			if cut {
				pg.cut++
			}
			pg.lines = append(pg.lines, s)
		}
	}
}

// readLine reads one line, keeping at most keep bytes of it, without its
// line ending. ok is false at the end of the input.
func readLine(br *bufio.Reader, keep int) (line []byte, ok bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			ok = true
			if room := keep - len(line); room > 0 {
				line = append(line, chunk[:min(room, len(chunk))]...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			err = nil
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		return line, ok, err
	}
}

// cutLine returns line as a string, cut to maxChars characters with a marker.
func cutLine(line []byte, maxChars int) (string, bool) {
	if len(line) <= maxChars || utf8.RuneCount(line) <= maxChars {
		return string(line), false
	}
	n, i := 0, 0
	for i < len(line) && n < maxChars {
		_, size := utf8.DecodeRune(line[i:])
		i += size
		n++
	}
	return string(line[:i]) + lineCutMarker, true
}

// looksBinary reports whether sample is the start of a binary file: it holds
// a NUL byte, or more than 30% of it are control characters that text does
// not use.
func looksBinary(sample []byte) bool {
	if bytes.IndexByte(sample, 0) >= 0 {
		return true
	}
	odd := 0
	for _, b := range sample {
		if b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' && b != '\b' && b != 0x1b && b != '\v' {
			odd++
		}
	}
	return odd*10 > len(sample)*3
}
