package agent

import (
	"context"

	"companion/tools"
)

// announceStep asks the call what it will change and sends
// ToolCallStarted. A call that failed to prepare, whose confirmation
// failed or that a hook refused ends here, announced.
func (s *Session) announceStep(ctx context.Context, p *prepared, next toolNext) {
	if p.inv == nil {
		s.emit(ctx, ToolCallStarted{ID: p.id, Name: p.fc.Name, Title: p.fc.Name, Kind: tools.KindOther, Input: p.input()})
		return
	}
	conf, err := p.inv.Confirmation(ctx)
	p.started = ToolCallStarted{ID: p.id, Name: p.fc.Name, Title: p.inv.Title(), Kind: p.tool.Kind(),
		Locations: p.inv.Locations(), Input: p.input(), Confirm: conf}
	s.emit(ctx, p.started)
	switch {
	case err != nil:
		p.res = tools.ErrorResult(err.Error())
		return
	case p.refusal != "":
		s.decided(decidedBlock)
		refuse(p, p.refusal)
		return
	}
	p.conf = conf
	next(ctx, p)
}
