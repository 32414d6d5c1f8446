package companion

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"

	"companion/ide"
)

// The notifications an IDE sends about diffs.
const (
	methodDiffAccepted = "ide/diffAccepted"
	methodDiffRejected = "ide/diffRejected"
	// methodDiffClosed is the legacy name of a rejection.
	methodDiffClosed = "ide/diffClosed"
)

// onNotification handles one notification from cn; those of any
// connection but the current one are stale and ignored.
func (c *Client) onNotification(cn *conn, n mcp.JSONRPCNotification) {
	c.mu.Lock()
	current := c.cur == cn
	c.mu.Unlock()
	if !current {
		return
	}
	raw := []byte("{}")
	if n.Params.AdditionalFields != nil {
		b, err := json.Marshal(n.Params.AdditionalFields)
		if err != nil {
			c.log.Debug("IDE notification unreadable", "method", n.Method, "err", err)
			return
		}
		raw = b
	}
	switch n.Method {
	case ide.CompanionMethodContextUpdate:
		c.onContextUpdate(raw)
	case methodDiffAccepted:
		c.onDiffAnswer(cn, n.Method, raw, DiffAccepted)
	case methodDiffRejected, methodDiffClosed:
		c.onDiffAnswer(cn, n.Method, raw, DiffRejected)
	default:
		c.log.Debug("IDE notification ignored", "method", n.Method)
	}
}

// onContextUpdate converts a context update and hands it to OnContext,
// unless the client is closing.
func (c *Client) onContextUpdate(raw json.RawMessage) {
	ctx, err := ide.FromCompanionSpec(raw)
	if err != nil {
		c.log.Debug("IDE context update dropped", "err", err)
		return
	}
	if c.opts.OnContext == nil {
		return
	}
	c.ctxMu.Lock()
	defer c.ctxMu.Unlock()
	if c.noContext {
		return
	}
	c.opts.OnContext(ctx)
}

// diffAnswer is the params of the diff notifications.
type diffAnswer struct {
	FilePath string  `json:"filePath"`
	Content  *string `json:"content"`
}

// onDiffAnswer ends the open diff the notification names with outcome.
func (c *Client) onDiffAnswer(cn *conn, method string, raw json.RawMessage, outcome DiffOutcome) {
	var a diffAnswer
	if err := json.Unmarshal(raw, &a); err != nil || a.FilePath == "" {
		c.log.Debug("IDE diff answer unreadable", "method", method, "err", err)
		return
	}
	c.mu.Lock()
	d := c.diffs[diffKey(a.FilePath)]
	c.mu.Unlock()
	if d == nil || d.cn != cn {
		c.log.Debug("IDE diff answer for no open diff", "method", method, "file", a.FilePath)
		return
	}
	res := DiffResult{Outcome: outcome}
	if a.Content != nil {
		res.Content = *a.Content
	}
	c.finish(d, res)
}
