package agent

import (
	"context"
	"time"
)

// timingStep counts the call, whether it failed and how long it took
// (for /stats and Totals), and logs it.
func (s *engine) timingStep(ctx context.Context, p *prepared, next toolNext) {
	start := time.Now()
	ctx, end := s.startToolSpan(ctx, p)
	next(ctx, p)
	if p.res == nil {
		end(p, 0)
		return
	}
	took := time.Since(start)
	end(p, took)
	s.addCall(p.fc.Name, p.res.IsError, took)
	s.opts.Log.Debug("tool call ended", "tool", p.fc.Name, "id", p.id, "failed", p.res.IsError, "took", took)
}
