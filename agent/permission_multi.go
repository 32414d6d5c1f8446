package agent

import (
	"companion/tools"
	"companion/tools/policy"
)

// decideEach asks the policy about a call; a multi-file edit (a rename)
// is decided file by file, as if each were an edit of its own, and gets
// the strictest verdict: a deny of any file denies it, an ask for any
// asks (with its reason).
func (s *Session) decideEach(call policy.Call) policy.Verdict {
	conf := call.Confirm
	if conf == nil || conf.Type != tools.ConfirmEdit || len(conf.More) == 0 {
		return s.policy.Decide(call)
	}
	files := append([]tools.Diff{{Path: conf.Path, OldText: conf.OldText, NewText: conf.NewText}}, conf.More...)
	out := policy.Verdict{Decision: policy.Allow}
	for _, d := range files {
		one := *conf
		one.Path, one.OldText, one.NewText, one.More = d.Path, d.OldText, d.NewText, nil
		c := call
		c.Confirm, c.Paths = &one, []string{d.Path}
		v := s.policy.Decide(c)
		switch {
		case v.Decision == policy.Deny:
			return v
		case v.Decision == policy.Ask && (out.Decision == policy.Allow || out.Reason == ""):
			out = v
		}
	}
	return out
}
