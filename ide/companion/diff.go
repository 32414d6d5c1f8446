package companion

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"companion/mcpclient"
)

// DiffOutcome is how a diff shown in the IDE ended.
type DiffOutcome int

// The outcomes of a diff.
const (
	// DiffAccepted: the user accepted; Content is the final text, which
	// the user may have edited. The agent writes it.
	DiffAccepted DiffOutcome = iota + 1
	// DiffRejected: the user rejected (ide/diffRejected, or the legacy
	// ide/diffClosed); Content is what the IDE sent along, often "".
	DiffRejected
	// DiffLost: the connection broke (Err is ErrConnectionLost) or the
	// client was closed (ErrClosed) before an answer; the caller asks
	// another way.
	DiffLost
	// DiffClosed: the agent closed the diff: CloseDiff (Err nil, Content
	// the text the IDE returned), the context given to OpenDiff ended (Err
	// is its error) or no answer came within Options.DiffTimeout (Err is
	// ErrDiffTimeout).
	DiffClosed
)

// String names the outcome.
func (o DiffOutcome) String() string {
	switch o {
	case DiffAccepted:
		return "accepted"
	case DiffRejected:
		return "rejected"
	case DiffLost:
		return "lost"
	case DiffClosed:
		return "closed"
	default:
		return fmt.Sprintf("DiffOutcome(%d)", int(o))
	}
}

// DiffResult is the end of one diff.
type DiffResult struct {
	FilePath string
	Outcome  DiffOutcome
	Content  string
	Err      error
}

// pendingDiff is a diff shown in the IDE and not yet answered.
type pendingDiff struct {
	path string
	cn   *conn
	// ch receives the one result, then is closed.
	ch chan DiffResult
	// done is closed with ch.
	done chan struct{}
	once sync.Once
}

// diffKey is the map key of a file path.
func diffKey(path string) string { return filepath.Clean(path) }

// OpenDiff shows newContent for filePath (absolute) in the IDE's diff view
// and returns at once; the channel later yields exactly one DiffResult and
// is closed. One diff per file may be open at a time: a second OpenDiff for
// the same file fails with ErrDiffPending and leaves the first open (the
// user may be editing it; close it with CloseDiff first). ctx covers the
// whole diff: when it ends before an answer, the diff is closed in the IDE
// and ends as DiffClosed, as it does after Options.DiffTimeout.
//
// It fails with ErrNotConnected while the connection is down,
// ErrDiffUnsupported when the IDE has no diff tools, ErrToolFailed when the
// IDE refuses, and ErrClosed after Close.
func (c *Client) OpenDiff(ctx context.Context, filePath, newContent string) (<-chan DiffResult, error) {
	d, err := c.register(filePath)
	if err != nil {
		return nil, err
	}
	args := map[string]any{"filePath": filePath, "newContent": newContent}
	if _, err := c.callTool(ctx, d.cn.mc, toolOpenDiff, args); err != nil {
		c.forget(d)
		c.wg.Done()
		return nil, err
	}
	go c.watchDiff(ctx, d)
	return d.ch, nil
}

// register records a new diff for filePath on the current connection and
// counts its watcher in wg.
func (c *Client) register(filePath string) (*pendingDiff, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.closed:
		return nil, ErrClosed
	case !c.connected:
		return nil, ErrNotConnected
	case !c.cur.canDiff:
		return nil, ErrDiffUnsupported
	}
	key := diffKey(filePath)
	if _, busy := c.diffs[key]; busy {
		return nil, fmt.Errorf("%w: %s", ErrDiffPending, filePath)
	}
	d := &pendingDiff{path: filePath, cn: c.cur, ch: make(chan DiffResult, 1), done: make(chan struct{})}
	c.diffs[key] = d
	c.wg.Add(1)
	return d, nil
}

// forget removes d without an answer (its channel is never handed out).
func (c *Client) forget(d *pendingDiff) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.diffs[diffKey(d.path)] == d {
		delete(c.diffs, diffKey(d.path))
	}
}

// finish ends d with res unless it has ended already, and reports whether
// this call ended it.
func (c *Client) finish(d *pendingDiff, res DiffResult) bool {
	c.forget(d)
	ended := false
	d.once.Do(func() {
		res.FilePath = d.path
		d.ch <- res
		close(d.ch)
		close(d.done)
		ended = true
	})
	return ended
}

// watchDiff ends d when its time is up or ctx ends, and closes it in the
// IDE then. An answer, a lost connection or Close end it otherwise.
func (c *Client) watchDiff(ctx context.Context, d *pendingDiff) {
	defer c.wg.Done()
	timer := time.NewTimer(c.opts.DiffTimeout)
	defer timer.Stop()
	var why error
	select {
	case <-d.done:
		return
	case <-c.ctx.Done():
		return // the supervisor ends it as lost
	case <-timer.C:
		why = ErrDiffTimeout
	case <-ctx.Done():
		why = ctx.Err()
	}
	if !c.finish(d, DiffResult{Outcome: DiffClosed, Err: why}) {
		return
	}
	cctx, cancel := context.WithTimeout(c.ctx, c.opts.RequestTimeout)
	defer cancel()
	if _, err := c.callTool(cctx, d.cn.mc, toolCloseDiff, closeArgs(d.path)); err != nil {
		c.log.Debug("closing the IDE diff failed", "file", d.path, "err", err)
	}
}

// CloseDiff closes the diff for filePath in the IDE and returns the text it
// held, which the user may have edited. An open diff from OpenDiff ends as
// DiffClosed with that text. The IDE answers with the raw text (the spec)
// or JSON {"content": ...} (the shipped VS Code extension); both are
// accepted, so a file whose whole text is such a JSON object reads as its
// content field. No diff open in the IDE gives "".
func (c *Client) CloseDiff(ctx context.Context, filePath string) (string, error) {
	c.mu.Lock()
	cn, up, closed := c.cur, c.connected, c.closed
	d := c.diffs[diffKey(filePath)]
	c.mu.Unlock()
	switch {
	case closed:
		return "", ErrClosed
	case !up:
		return "", ErrNotConnected
	case !cn.canDiff:
		return "", ErrDiffUnsupported
	}
	res, err := c.callTool(ctx, cn.mc, toolCloseDiff, closeArgs(filePath))
	if err != nil {
		return "", err
	}
	content := closeDiffContent(res)
	if d != nil {
		c.finish(d, DiffResult{Outcome: DiffClosed, Content: content})
	}
	return content, nil
}

// closeArgs are closeDiff's arguments; suppressNotification keeps the IDE
// from also reporting the diff as rejected.
func closeArgs(filePath string) map[string]any {
	return map[string]any{"filePath": filePath, "suppressNotification": true}
}

// closeDiffContent reads closeDiff's result: JSON {"content": string|null}
// or else the raw text.
func closeDiffContent(res *mcp.CallToolResult) string {
	text := firstText(res)
	if t := bytes.TrimSpace([]byte(text)); len(t) > 0 && t[0] == '{' {
		var obj map[string]json.RawMessage
		if json.Unmarshal(t, &obj) == nil {
			if raw, ok := obj["content"]; ok {
				var s *string
				if json.Unmarshal(raw, &s) == nil {
					if s == nil {
						return ""
					}
					return *s
				}
			}
		}
	}
	return text
}

// firstText is the first text block of a tool result.
func firstText(res *mcp.CallToolResult) string {
	for _, block := range res.Content {
		if t, ok := mcp.AsTextContent(block); ok {
			return t.Text
		}
	}
	return ""
}

// callTool calls one IDE tool within RequestTimeout; an error result
// becomes ErrToolFailed with the tool's text.
func (c *Client) callTool(ctx context.Context, mc *mcpclient.Client, name string, args map[string]any) (*mcp.CallToolResult, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.RequestTimeout)
	defer cancel()
	res, err := mc.CallTool(ctx, name, args)
	if err != nil {
		return nil, fmt.Errorf("IDE tool %s: %w", name, err)
	}
	if res.IsError {
		msg := firstText(res)
		if msg == "" {
			msg = "no message"
		}
		return nil, fmt.Errorf("%w: %s: %s", ErrToolFailed, name, msg)
	}
	return res, nil
}
