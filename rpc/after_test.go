package rpc

import (
	"context"
	"testing"
)

func TestAfterReply(t *testing.T) {
	t.Parallel()
	m := testMux(t)
	Handle(m, "new", func(ctx context.Context, c *Conn, _ *struct{}) (map[string]string, error) {
		AfterReply(ctx, func() { panic("hook") })
		AfterReply(ctx, func() { _ = c.Notify(context.Background(), "after/1", nil) })
		AfterReply(ctx, func() {
			AfterReply(ctx, func() { _ = c.Notify(context.Background(), "after/2", nil) })
		})
		if err := c.Notify(ctx, "before", nil); err != nil {
			return nil, err
		}
		return map[string]string{"sessionId": "s"}, nil
	})
	_, p := serveRaw(t, m, Options{})
	p.sendMsg(`{"jsonrpc":"2.0","id":1,"method":"new"}`)
	p.expect(`{"jsonrpc":"2.0","method":"before"}`)
	p.expect(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s"}}`)
	p.expect(`{"jsonrpc":"2.0","method":"after/1"}`)
	p.expect(`{"jsonrpc":"2.0","method":"after/2"}`)
	p.sendMsg(afterReq)
	p.expect(afterResp)
}

func TestAfterReplyOutsideRequest(t *testing.T) {
	ran := false
	AfterReply(context.Background(), func() { ran = true })
	if !ran {
		t.Error("hook outside a request did not run at once")
	}
}
