package host

import (
	"errors"
	"fmt"

	"companion/agent/store"
)

// List pages through the stored sessions under cwd (all when empty),
// newest first, from cursor; a bad cursor is ErrInvalid.
func (h *Host) List(cwd, cursor string) ([]store.Info, string, error) {
	infos, next, err := h.Store().List(store.ListOptions{Cwd: cwd, Cursor: cursor, Titled: true})
	if errors.Is(err, store.ErrBadCursor) {
		return nil, "", mark(ErrInvalid, fmt.Errorf("invalid cursor %q", cursor))
	}
	if err != nil {
		return nil, "", fmt.Errorf("cannot list sessions: %w", err)
	}
	return infos, next, nil
}

// ResumeLatest names, where a front end takes a session to resume, the
// session of the working folder updated last (--continue, --resume latest).
const ResumeLatest = "latest"

// ErrNoStoredSession is why ResumeID found nothing to continue.
var ErrNoStoredSession = errors.New("no stored session")

// ResumeID is the stored session resume names: its id as given, or for
// ResumeLatest the newest prompted session of cwd; "" starts a new one.
func (h *Host) ResumeID(resume, cwd string) (string, error) {
	if resume != ResumeLatest {
		return resume, nil
	}
	infos, _, err := h.List(cwd, "")
	if err != nil {
		return "", err
	}
	if len(infos) == 0 {
		return "", fmt.Errorf("cannot continue: %w in %s", ErrNoStoredSession, cwd)
	}
	return infos[0].ID, nil
}

// CheckID reports an error for an id that cannot name a stored session:
// one companion never hands out and the store cannot hold.
func CheckID(id string) error { return store.CheckID(id) }
