package agent

// Roots are the session's roots now, the primary first: the directories
// its tools may touch (MCP servers that ask get them too).
func (s *Session) Roots() []string { return s.opts.Roots.All() }
