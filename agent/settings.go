package agent

import "context"

// tellNotices emits Options.Notices on the session's first prompt.
func (s *Session) tellNotices(ctx context.Context) {
	if told := s.noticed.Swap(true); told {
		return
	}
	for _, n := range s.opts.Notices {
		s.emit(ctx, n)
	}
}

// acceptSettings runs /accept-settings.
func (s commands) acceptSettings() string {
	if s.opts.AcceptSettings == nil {
		return "No project settings are waiting to be accepted."
	}
	out, err := s.opts.AcceptSettings()
	if err != nil {
		return "Cannot accept the project settings: " + err.Error()
	}
	return out
}
