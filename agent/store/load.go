package store

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// Load reads session id's whole log: its metadata and every record in
// order. A torn last line (a crash mid-write) is dropped, and a corrupt
// line elsewhere is skipped; both are logged, neither is an error. Record
// types the store does not know are returned as they are. A log without a
// readable header is ErrCorrupt.
func (s *Store) Load(id string) (Meta, []Record, error) {
	if err := checkID(id); err != nil {
		return Meta{}, nil, err
	}
	s.mu.Lock()
	dir, ok := s.locate(id)
	s.mu.Unlock()
	if !ok {
		return Meta{}, nil, fmt.Errorf("load %s: %w", id, ErrNotFound)
	}
	buf, err := os.ReadFile(logPath(dir, id))
	if errors.Is(err, os.ErrNotExist) {
		return Meta{}, nil, fmt.Errorf("load %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Meta{}, nil, fmt.Errorf("load %s: %w", id, err)
	}
	meta, recs, err := s.decodeLog(id, buf)
	if err != nil {
		return Meta{}, nil, fmt.Errorf("load %s: %w", id, err)
	}
	return meta, recs, nil
}

// maxLoggedBad bounds the warnings for corrupt lines of one log.
const maxLoggedBad = 5

// decodeLog parses a whole log held in buf. Records alias buf.
func (s *Store) decodeLog(id string, buf []byte) (Meta, []Record, error) {
	line, rest, ok := bytes.Cut(buf, []byte{'\n'})
	if !ok {
		return Meta{}, nil, fmt.Errorf("%w: no complete header line", ErrCorrupt)
	}
	meta, err := parseHeader(line)
	if err != nil {
		return Meta{}, nil, err
	}
	if meta.ID != id {
		s.log.Warn("session store: header names another id", "session", id, "header", meta.ID)
		meta.ID = id
	}
	recs := make([]Record, 0, bytes.Count(rest, []byte{'\n'}))
	var p parser
	bad := 0
	for n := 2; len(rest) > 0; n++ {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			s.log.Warn("session store: dropping a torn last line", "session", id, "line", n, "bytes", len(rest))
			break
		}
		line, rest = bytes.TrimSuffix(rest[:i], []byte{'\r'}), rest[i+1:]
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		r, err := p.parse(line)
		if err != nil {
			if bad++; bad <= maxLoggedBad {
				s.log.Warn("session store: skipping a corrupt line", "session", id, "line", n, "err", err)
			}
			continue
		}
		recs = append(recs, r)
	}
	if bad > maxLoggedBad {
		s.log.Warn("session store: corrupt lines skipped", "session", id, "count", bad)
	}
	return meta, recs, nil
}

// readHeader returns the metadata in the first line of the log at path.
func readHeader(path string) (Meta, error) {
	f, err := os.Open(path)
	if err != nil {
		return Meta{}, err
	}
	defer f.Close()
	lr := newLineReader(f, headerBuffer)
	line, _, complete, err := lr.next()
	if err != nil && err != io.EOF {
		return Meta{}, err
	}
	if !complete {
		return Meta{}, fmt.Errorf("%w: no complete header line", ErrCorrupt)
	}
	return parseHeader(line)
}

// headerBuffer is the read buffer for headers (longer ones still work).
const headerBuffer = 4 << 10

// repair cuts a torn last line off the log at path, so that it ends with a
// newline. A log without any complete line is ErrCorrupt.
func (s *Store) repair(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	keep, err := lastLineEnd(f, size)
	if err != nil || keep == size {
		return err
	}
	s.log.Warn("session store: cutting a torn last line", "path", path, "bytes", size-keep)
	if err := f.Truncate(keep); err != nil {
		return err
	}
	return f.Sync()
}

// tailChunk is how much of a log repair reads at a time, backwards.
const tailChunk = 64 << 10

// lastLineEnd returns the offset just past the last newline among the
// first size bytes of f.
func lastLineEnd(f *os.File, size int64) (int64, error) {
	buf := make([]byte, min(tailChunk, size))
	for end := size; end > 0; {
		n := min(int64(len(buf)), end)
		off := end - n
		if _, err := f.ReadAt(buf[:n], off); err != nil {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return off + int64(i) + 1, nil
		}
		end = off
	}
	return 0, fmt.Errorf("%w: no complete header line", ErrCorrupt)
}

// lineReader yields the lines of a stream of any length, reusing its
// buffers: a line is valid until the next call.
type lineReader struct {
	r    *bufio.Reader
	long []byte
}

// maxKeptLine bounds the long-line buffer a lineReader keeps for reuse.
const maxKeptLine = 4 << 20

// newLineReader reads r through a buffer of size bytes.
func newLineReader(r io.Reader, size int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, size)}
}

// next returns the next line without its newline, the bytes it took in
// the stream and whether it ended with a newline (false for a torn last
// line, or when err is not nil). At the end of the stream err is io.EOF.
func (lr *lineReader) next() (line []byte, n int, complete bool, err error) {
	b, err := lr.r.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		if err == nil {
			return b[:len(b)-1], len(b), true, nil
		}
		return b, len(b), false, err
	}
	if cap(lr.long) > maxKeptLine {
		lr.long = nil // let an earlier huge line go
	}
	lr.long = append(lr.long[:0], b...)
	for err == bufio.ErrBufferFull {
		b, err = lr.r.ReadSlice('\n')
		lr.long = append(lr.long, b...)
	}
	if err != nil {
		return lr.long, len(lr.long), false, err
	}
	return lr.long[:len(lr.long)-1], len(lr.long), true, nil
}
