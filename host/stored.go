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

// CheckID reports an error for an id that cannot name a stored session:
// one companion never hands out and the store cannot hold.
func CheckID(id string) error { return store.CheckID(id) }
