package acp

import (
	"context"
	"encoding/json"

	"companion/ide"
	"companion/rpc"
)

// MethodIDEContextUpdate is companion's extension notification carrying
// what the user sees in the editor (DESIGN.md, "IDE context over ACP").
const MethodIDEContextUpdate = "_companion/ide/contextUpdate"

// ideContextUpdate hands an editor context to one session, or to every
// session of the connection when no sessionId is given. Bad params are
// logged and dropped: notifications get no answer.
func (c *connState) ideContextUpdate(_ context.Context, _ *rpc.Conn, p *json.RawMessage) {
	if p == nil {
		return
	}
	id, ictx, err := ide.ParseUpdate(*p)
	if err != nil {
		c.srv.log.Warn("dropping an IDE context update", "err", err)
		return
	}
	c.host.UpdateIDEContext(id, ictx)
}
