package tools

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"runtime"
	"sync"
)

// grepWindow bounds how many files the Go search has in flight or finished
// but not yet emitted, which bounds its memory.
const grepWindow = 64

// grepJob is one file to search, numbered in walk order.
type grepJob struct {
	seq int
	abs string
}

// grepDone is a searched file's matches.
type grepDone struct {
	seq   int
	lines []grepLine
}

// searchGo searches the files under q.dir with a bounded pool of workers fed
// by the walker. Results are emitted in walk order, so the output is the same
// as ripgrep's --sort path, and the search stops once limit+1 matches are in.
func searchGo(ctx context.Context, q grepQuery) ([]grepLine, error) {
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
				d := grepDone{seq: j.seq, lines: grepFile(ctx, q, j.abs)}
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
		walkErr <- feedGrepJobs(ctx, q, jobs, window, stop)
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	out := collectInOrder(results, window, q.limit, halt)
	err := <-walkErr
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return out, err
}

// feedGrepJobs walks q.dir and sends each candidate file, taking a window
// slot per file, until the walk ends or stop is closed.
func feedGrepJobs(ctx context.Context, q grepQuery, jobs chan<- grepJob, window chan struct{}, stop <-chan struct{}) error {
	w := &walker{root: q.root, dir: q.dir, ignore: newIgnoreTree(q.root)}
	seq := 0
	return w.walk(ctx, func(abs string, rel []string, d fs.DirEntry) error {
		if !q.included(rel) {
			return nil
		}
		if fi, err := d.Info(); err != nil || fi.Size() > q.maxFileSize {
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
		case jobs <- grepJob{seq: seq, abs: abs}:
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
// then halts the search; it drains results until the workers are done.
func collectInOrder(results <-chan grepDone, window chan struct{}, limit int, halt func()) []grepLine {
	pending := map[int][]grepLine{}
	next := 0
	var out []grepLine
	full := false
	for d := range results {
		if full {
			continue
		}
		pending[d.seq] = d.lines
		for lines, ok := pending[next]; ok; lines, ok = pending[next] {
			delete(pending, next)
			next++
			<-window
			out = append(out, lines...)
		}
		if len(out) > limit {
			full = true
			halt()
		}
	}
	return out
}

// grepFile returns a file's matching lines (at most maxLines of them). Binary
// files (holding a NUL byte, as ripgrep judges) and unreadable files give none.
func grepFile(ctx context.Context, q grepQuery, abs string) []grepLine {
	if ctx.Err() != nil {
		return nil
	}
	data, err := os.ReadFile(abs)
	if err != nil || int64(len(data)) > q.maxFileSize || bytes.IndexByte(data, 0) >= 0 {
		return nil
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
			out = append(out, grepLine{abs: abs, line: n, text: string(line)})
		}
	}
	return out
}
