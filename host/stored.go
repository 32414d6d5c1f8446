package host

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

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

// ResumeID is the stored session resume names: its id as given, for
// ResumeLatest the newest prompted session of cwd, for a number the
// session of cwd Numbered gives that number; "" starts a new one.
func (h *Host) ResumeID(resume, cwd string) (string, error) {
	if _, isIndex := sessionIndex(resume); resume != ResumeLatest && !isIndex {
		return resume, nil
	}
	info, err := h.StoredSession(resume, cwd)
	if err != nil {
		return "", fmt.Errorf("cannot continue: %w", err)
	}
	return info.ID, nil
}

// Numbered returns the prompted sessions of cwd in the order they were
// created, as Gemini CLI numbers them: the first is number 1, the newest
// the last; resuming one does not change the numbers.
func (h *Host) Numbered(cwd string) ([]store.Info, error) {
	var all []store.Info
	cursor := ""
	for {
		page, next, err := h.List(cwd, cursor)
		if err != nil {
			return nil, err
		}
		all = append(all, page...)
		if next == "" {
			break
		}
		cursor = next
	}
	slices.SortStableFunc(all, func(a, b store.Info) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return all, nil
}

// StoredSession finds the stored session of cwd that which names: a
// number as Numbered gives it, ResumeLatest, or an id. A number or id no
// session of cwd has is an error wrapping ErrNoStoredSession that says
// how many there are.
func (h *Host) StoredSession(which, cwd string) (store.Info, error) {
	infos, err := h.Numbered(cwd)
	if err != nil {
		return store.Info{}, err
	}
	if len(infos) == 0 {
		return store.Info{}, fmt.Errorf("%w in %s", ErrNoStoredSession, cwd)
	}
	n, isIndex := sessionIndex(which)
	switch {
	case which == ResumeLatest:
		return slices.MaxFunc(infos, func(a, b store.Info) int {
			if c := a.UpdatedAt.Compare(b.UpdatedAt); c != 0 {
				return c
			}
			return strings.Compare(a.ID, b.ID)
		}), nil
	case isIndex && n >= 1 && n <= len(infos):
		return infos[n-1], nil
	case isIndex:
		return store.Info{}, fmt.Errorf("%w numbered %d in %s: there are %d (1 to %d)", ErrNoStoredSession, n, cwd, len(infos), len(infos))
	}
	for _, info := range infos {
		if info.ID == which {
			return info, nil
		}
	}
	return store.Info{}, fmt.Errorf("%w %q in %s", ErrNoStoredSession, which, cwd)
}

// sessionIndex reads which as a session number: digits only.
func sessionIndex(which string) (int, bool) {
	if which == "" || len(which) > 9 {
		return 0, false
	}
	for _, r := range which {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(which)
	return n, err == nil
}

// CheckID reports an error for an id that cannot name a stored session:
// one companion never hands out and the store cannot hold.
func CheckID(id string) error { return store.CheckID(id) }
