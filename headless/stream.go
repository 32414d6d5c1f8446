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
	// pending is the first line, when it was not an initialize request.
	pending []byte

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
	go readLines(ctx, o.Stdin, lines, readErr)
	first, ok := sr.next(ctx, lines)
	if !ok {
		return sr.noInput(ctx, readErr)
	}
	if err := sr.begin(ctx, first); err != nil {
		return startFailed(o, rep, err)
	}
	// The init line waits (briefly) for MCP servers, whose handshakes may
	// need the SDK's answers: input keeps flowing meanwhile, and prompts
	// wait for the line.
	ready := make(chan struct{})
	go func() {
		defer close(ready)
		sr.rep.system("init", sr.rs.initFields(ctx, o))
	}()
	turns := make(chan struct{})
	go sr.turns(ctx, ready, turns)
	sr.replay(ctx)
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
		fmt.Fprintf(o.Stderr, "%s: reading stdin: %v\n", o.name(), err)
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
		fmt.Fprintf(sr.o.Stderr, "%s: reading stdin: %v\n", sr.o.name(), err)
		return ExitError
	}
	return ExitOK
}

// readLines sends each non-empty line of r, then closes lines and reports
// the read error (nil at EOF). It stops early when ctx ends.
func readLines(ctx context.Context, r io.Reader, lines chan<- []byte, errc chan<- error) {
	defer close(lines)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br)
		if len(line) > 0 {
			select {
			case lines <- line:
			case <-ctx.Done():
				errc <- nil
				return
			}
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
// an initialize request, else with the settings alone (and that line is
// kept to be handled first).
func (sr *streamRun) begin(ctx context.Context, first []byte) error {
	var in inbound
	if json.Unmarshal(first, &in) == nil && in.Type == typeControlReq && subtypeOf(in.Request) == "initialize" {
		if id, ok := in.requestID(); ok {
			return sr.initialize(ctx, id, in.Request)
		}
	}
	sr.pending = first
	return sr.open(ctx, extras{})
}

// replay handles the first line when it was not an initialize request.
func (sr *streamRun) replay(ctx context.Context) {
	if sr.pending != nil {
		sr.handle(ctx, sr.pending)
		sr.pending = nil
	}
}

// open builds the session.
func (sr *streamRun) open(ctx context.Context, ex extras) error {
	rs, err := openSession(ctx, sr.o, ex, sr.rep, &sdkAsker{ctl: sr.ctl, sr: sr, root: sr.o.Cwd})
	if err != nil {
		return err
	}
	sr.rs = rs
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
