package builtin

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"runtime"
	"sync"
)

// grepWindow bounds how many files the Go search has in flight or finished
// but not yet emitted, which bounds its memory.
const grepWindow = 64

// grepJob is one file to search, numbered in walk order, with its path
// components below the search directory.
type grepJob struct {
	seq int
	abs string
	rel []string
}

// grepDone is a searched file's matches.
type grepDone struct {
	seq   int
	lines []grepLine
	// large is set when the file was not searched for its size.
	large bool
	abs   string
}

// searchGo searches the files under q.dir with a bounded pool of workers fed
// by the walker. Results are emitted in walk order, so the output is the same
// as ripgrep's --sort path, and the search stops once limit+1 matches are in.
func searchGo(ctx context.Context, q grepQuery) ([]grepLine, grepLarge, error) {
	w := q.walker()
	if err := w.open(); err != nil {
		return nil, grepLarge{}, nil // nothing readable to search
	}
	defer w.close() // after the workers are done: they read through it
	// stop is closed once enough matches are in; everything then winds down.
	stop := make(chan struct{})
	var stopOnce sync.Once
	halt := func() { stopOnce.Do(func() { close(stop) }) }
	defer halt()
	jobs := make(chan grepJob)
	results := make(chan grepDone)
	window := make(chan struct{}, grepWindow)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), 8) {
		wg.Go(func() {
			for j := range jobs {
				lines, large := grepFile(ctx, q, w, j)
				d := grepDone{seq: j.seq, lines: lines, large: large, abs: j.abs}
				select {
				case results <- d:
				case <-stop:
					return
				case <-ctx.Done():
					return
				}
			}
		})
	}
	walkErr := make(chan error, 1)
	go func() {
		defer close(jobs)
		walkErr <- feedGrepJobs(ctx, q, w, jobs, window, stop)
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	out, large := collectInOrder(results, window, q.limit, halt)
	err := <-walkErr
	if ctx.Err() != nil {
		return nil, grepLarge{}, ctx.Err()
	}
	return out, large, err
}

// feedGrepJobs walks q.dir and sends each candidate file, taking a window
// slot per file, until the walk ends or stop is closed.
func feedGrepJobs(ctx context.Context, q grepQuery, w *walker, jobs chan<- grepJob, window chan struct{}, stop <-chan struct{}) error {
	seq := 0
	return w.walk(ctx, func(abs string, rel []string, _ fs.DirEntry) error {
		if !q.included(rel) {
			return nil
		}
		select {
		case window <- struct{}{}:
		case <-stop:
			return errStopWalk
		case <-ctx.Done():
			return ctx.Err()
		}
		select {
		case jobs <- grepJob{seq: seq, abs: abs, rel: rel}:
			seq++
			return nil
		case <-stop:
			return errStopWalk
		case <-ctx.Done():
			return ctx.Err()
		}
	})
}

// collectInOrder gathers results in walk order until limit+1 lines are in,
// then halts the search; it drains results until the workers are done. It
// notes the files skipped for their size among those it took in.
func collectInOrder(results <-chan grepDone, window chan struct{}, limit int, halt func()) ([]grepLine, grepLarge) {
	pending := map[int]grepDone{}
	next := 0
	var out []grepLine
	var large grepLarge
	full := false
	for d := range results {
		if full {
			continue
		}
		pending[d.seq] = d
		for d, ok := pending[next]; ok; d, ok = pending[next] {
			delete(pending, next)
			next++
			<-window
			out = append(out, d.lines...)
			if d.large {
				large.add(d.abs)
			}
		}
		if len(out) > limit {
			full = true
			halt()
		}
	}
	return out, large
}

// grepFile returns a file's matching lines (at most limit+1 of them), or
// large when it is over the size limit. Binary files (holding a NUL byte,
// as ripgrep judges) and unreadable files give none. The file is opened
// through the walk's os.Root.
func grepFile(ctx context.Context, q grepQuery, w *walker, j grepJob) (_ []grepLine, large bool) {
	if ctx.Err() != nil {
		return nil, false
	}
	f, err := w.openFile(j.rel)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	if fi.Size() > q.maxFileSize {
		return nil, true
	}
	data := make([]byte, fi.Size())
	n, err := io.ReadFull(f, data)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, false
	}
	data = data[:n]
	if bytes.IndexByte(data, 0) >= 0 || (q.whole != nil && !q.whole.Match(data)) {
		return nil, false
	}
	var out []grepLine
	for n := 1; len(data) > 0 && len(out) <= q.limit; n++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if q.re.Match(line) {
			out = append(out, grepLine{abs: j.abs, line: n, text: string(line)})
		}
	}
	return out, false
}

// grepLargeNamed is how many of the files skipped for their size a grep
// result names.
const grepLargeNamed = 5

// grepLarge counts the files a search left out for their size, naming the
// first few in walk order.
type grepLarge struct {
	n     int
	first []string
}

func (l *grepLarge) add(abs string) {
	l.n++
	if len(l.first) < grepLargeNamed {
		l.first = append(l.first, abs)
	}
}
