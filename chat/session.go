package chat

import (
	"context"
	"errors"
	"fmt"

	"companion/host"
)

// errNoSession is why a resume failed.
var errNoSession = errors.New("no stored session")

// open has a host build the chat's session, new or resumed, with the
// printer as its sink and the terminal as its way to ask.
func (c *chat) open(ctx context.Context) error {
	o := c.o
	h := host.New(o.Options)
	id, err := h.ResumeID(o.Resume, o.Cwd)
	if err != nil {
		h.Close()
		return err
	}
	req := host.Request{ID: id, Cwd: o.Cwd, Extra: o.IncludeDirs, AllowRules: o.AllowedTools, MaxRequests: o.MaxTurns}
	if req.ID == "" {
		req.ID = host.NewSessionID()
	}
	ask := &asker{out: c.out, lines: c.lines, flush: terminalFlush(c.o.In)}
	ports := host.Ports{Sink: c.out, Asker: ask, Questions: questions{a: ask}}
	var hs *host.Session
	if id == "" {
		hs, err = h.New(ctx, req, ports)
	} else {
		hs, _, err = h.Restore(ctx, req, ports)
	}
	if errors.Is(err, host.ErrNotFound) {
		err = fmt.Errorf("cannot resume %s: %w with this id", id, errNoSession)
	}
	if err != nil {
		h.Close()
		return err
	}
	if o.Mode != "" {
		if err := hs.Agent.SetMode(o.Mode); err != nil {
			h.Close()
			return err
		}
	}
	c.host, c.agent, c.id = h, hs.Agent, hs.ID
	return nil
}
