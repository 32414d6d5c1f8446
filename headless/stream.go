package headless

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"companion/agent/model"
)

// maxLine bounds one stdin line (a prompt with images can be large).
const maxLine = 64 << 20

// streamRun is a stream-json session: JSON lines in, JSON lines out.
type streamRun struct {
	o   *Options
	rep *reporter
	ctl *control
	rs  *runSession
	// relays are the SDK-hosted MCP servers by name.
	relays map[string]*sdkRelay

	// mu guards the prompt queue and the turn state below.
	mu       sync.Mutex
	queue    [][]model.Part
	wake     chan struct{}
	inputEOF bool
	// turnDone is closed when the running turn ends; nil when idle.
	turnDone   chan struct{}
	lastFailed bool
}

// runStream serves a stream-json session until stdin ends (and the last
// prompt has finished) or ctx ends.
func runStream(ctx context.Context, o *Options, rep *reporter) int {
	sr := &streamRun{o: o, rep: rep, ctl: newControl(rep.lines, o.ControlTimeout, o.Log),
		relays: map[string]*sdkRelay{}, wake: make(chan struct{}, 1)}
	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go readLines(o.Stdin, lines, readErr)
	first, ok := sr.next(ctx, lines)
	if !ok {
		return sr.noInput(ctx, readErr)
	}
	if err := sr.begin(ctx, first); err != nil {
		return startFailed(o, rep, err)
	}
	turns := make(chan struct{})
	go sr.turns(ctx, turns)
	for {
		line, ok := sr.next(ctx, lines)
		if !ok {
			break
		}
		sr.handle(ctx, line)
	}
	sr.endInput()
	<-turns
	sr.ctl.wait()
	sr.rs.close(o)
	if err := <-readErrOr(readErr); err != nil && ctx.Err() == nil {
		fmt.Fprintf(o.Stderr, "companion run: reading stdin: %v\n", err)
		return ExitError
	}
	return sr.exitCode(ctx)
}

// readErrOr returns ch when it has a value waiting, else a channel with a
// nil error (the reader is still blocked after an interrupt).
func readErrOr(ch chan error) chan error {
	select {
	case err := <-ch:
		out := make(chan error, 1)
		out <- err
		return out
	default:
		out := make(chan error, 1)
		out <- nil
		return out
	}
}

// next returns the next stdin line; false at the end of input or of ctx.
func (sr *streamRun) next(ctx context.Context, lines <-chan []byte) ([]byte, bool) {
	select {
	case line, ok := <-lines:
		return line, ok
	case <-ctx.Done():
		return nil, false
	}
}

// noInput ends a session whose stdin closed before the first line.
func (sr *streamRun) noInput(ctx context.Context, readErr chan error) int {
	if ctx.Err() != nil {
		return ExitInterrupted
	}
	if err := <-readErrOr(readErr); err != nil {
		fmt.Fprintf(sr.o.Stderr, "companion run: reading stdin: %v\n", err)
		return ExitError
	}
	return ExitOK
}

// readLines sends each non-empty line of r, then closes lines and reports
// the read error (nil at EOF).
func readLines(r io.Reader, lines chan<- []byte, errc chan<- error) {
	defer close(lines)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br)
		if len(line) > 0 {
			lines <- line
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			errc <- err
			return
		}
	}
}

// readLine reads one line without its end; over-long lines are an error.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, isPrefix, err := br.ReadLine()
		line = append(line, part...)
		if len(line) > maxLine {
			return nil, fmt.Errorf("a line is longer than %d bytes", maxLine)
		}
		if err != nil || !isPrefix {
			return trimCR(line), err
		}
	}
}

func trimCR(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\r' || b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// begin starts the session: with the SDK's options when the first line is
// an initialize request, else with the settings alone (and then handles
// that line).
func (sr *streamRun) begin(ctx context.Context, first []byte) error {
	var in inbound
	if json.Unmarshal(first, &in) == nil && in.Type == typeControlReq && subtypeOf(in.Request) == "initialize" {
		if id, ok := in.requestID(); ok {
			return sr.initialize(ctx, id, in.Request)
		}
	}
	if err := sr.open(ctx, extras{}); err != nil {
		return err
	}
	sr.handle(ctx, first)
	return nil
}

// open builds the session and writes the init line.
func (sr *streamRun) open(ctx context.Context, ex extras) error {
	rs, err := openSession(ctx, sr.o, ex, sr.rep, &sdkAsker{ctl: sr.ctl, sr: sr, root: sr.o.Cwd})
	if err != nil {
		return err
	}
	sr.rs = rs
	sr.rep.system("init", rs.initFields(ctx, sr.o))
	return nil
}

// subtypeOf reads a control request's subtype.
func subtypeOf(req json.RawMessage) string {
	var r struct {
		Subtype string `json:"subtype"`
	}
	json.Unmarshal(req, &r)
	return r.Subtype
}
