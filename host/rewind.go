package host

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"companion/agent"
	"companion/agent/checkpoint"
	"companion/agent/store"
)

// ErrBusy: the session has a turn running, so it cannot be rewound now.
var ErrBusy = errors.New("busy")

// Rewound is what Rewind did.
type Rewound struct {
	// ID is the new session, holding the conversation before the prompt.
	ID string
	// Prompt is the prompt rewound to (its text, and the front end's echo).
	Prompt agent.PromptInfo
	// Restored are the absolute paths put back on disk (written or removed).
	Restored []string
}

// Rewind forks stored session id at prompt n: a new stored session holds
// the conversation before prompt n, with id's current mode and model, and
// with restoreFiles the files go back to how they were before prompt n.
// id itself stays as it is. Unknown ids, prompts out of range (ErrInvalid)
// and a running turn (ErrBusy) are refused.
func (h *Host) Rewind(ctx context.Context, id string, n int, restoreFiles bool) (Rewound, error) {
	meta, recs, live, err := h.forkSource(id)
	if err != nil {
		return Rewound{}, err
	}
	plan, err := agent.PlanRewind(recs, n, live)
	if errors.Is(err, agent.ErrNoPrompt) {
		return Rewound{}, mark(ErrInvalid, fmt.Errorf("session %s has no prompt %d", id, n))
	}
	if err != nil {
		return Rewound{}, err
	}
	// A fork before the first prompt holds no conversation: it is titled by
	// its own first prompt, like a new session, so no empty "(fork)" is
	// listed meanwhile.
	title := ""
	if n > 0 {
		title = store.LastTitle(recs)
	}
	newID, err := h.copySession(meta, plan.Kept, title)
	if err != nil {
		return Rewound{}, err
	}
	out := Rewound{ID: newID, Prompt: plan.Prompt}
	if restoreFiles && plan.Checkpoint != "" {
		if out.Restored, err = h.restoreCheckpoint(ctx, meta.Cwd, plan.Checkpoint); err != nil {
			return out, fmt.Errorf("session %s was forked as %s, but the files were not put back: %w", id, newID, err)
		}
	}
	return out, nil
}

// Fork copies stored session id whole, as it would load, to a new session
// and returns its id; files are left alone.
func (h *Host) Fork(id string) (string, error) {
	meta, recs, _, err := h.forkSource(id)
	if err != nil {
		return "", err
	}
	return h.copySession(meta, agent.Effective(recs), store.LastTitle(recs))
}

// forkSource loads session id's journal, refusing unknown ids and live
// sessions with a turn running; live is the live session, if any.
func (h *Host) forkSource(id string) (store.Meta, []store.Record, *agent.Session, error) {
	if err := CheckID(id); err != nil {
		return store.Meta{}, nil, nil, mark(ErrInvalid, fmt.Errorf("session %q not found", id))
	}
	var live *agent.Session
	if s, ok := h.Session(id); ok {
		if live = s.Agent; live.Busy() {
			return store.Meta{}, nil, nil, mark(ErrBusy, fmt.Errorf("session %s is busy: a turn is running", id))
		}
	}
	meta, recs, err := h.Store().Load(id)
	if errors.Is(err, store.ErrNotFound) {
		return meta, nil, nil, mark(ErrInvalid, fmt.Errorf("session %s not found", id))
	}
	if err != nil {
		return meta, nil, nil, fmt.Errorf("cannot read session %s: %w", id, err)
	}
	return meta, recs, live, nil
}

// forkSuffix ends the title of a fork.
const forkSuffix = " (fork)"

// copySession stores recs as a new session of meta's folders, titled
// after title, and returns its id.
func (h *Host) copySession(meta store.Meta, recs []store.Record, title string) (string, error) {
	if title != "" && !strings.HasSuffix(title, forkSuffix) {
		title += forkSuffix
	}
	id := NewSessionID()
	m := store.Meta{ID: id, Cwd: meta.Cwd, AdditionalDirectories: meta.AdditionalDirectories}
	if err := h.Store().Copy(m, recs, title); err != nil {
		return "", fmt.Errorf("cannot store the fork: %w", err)
	}
	return id, nil
}

// restoreCheckpoint puts root's files back to checkpoint id and returns
// the absolute paths it wrote or removed.
func (h *Host) restoreCheckpoint(ctx context.Context, root, id string) ([]string, error) {
	cfg := h.Config()
	st, err := checkpoint.Open(checkpoint.StateDir(filepath.Join(cfg.StateDir, "checkpoints"), root), root, h.log)
	if err != nil {
		return nil, fmt.Errorf("checkpoints: %w", err)
	}
	r, err := st.Restore(ctx, id)
	paths := make([]string, 0, len(r.Written)+len(r.Removed))
	for _, p := range append(append([]string(nil), r.Written...), r.Removed...) {
		paths = append(paths, filepath.Join(root, filepath.FromSlash(p)))
	}
	return paths, err
}

// forker lets a live session read its own journal and store forks of it
// (agent.Forker, for /rewind).
type forker struct {
	h  *Host
	id string
}

// Records implements agent.Forker.
func (f forker) Records() ([]store.Record, error) {
	_, recs, err := f.h.Store().Load(f.id)
	return recs, err
}

// Fork implements agent.Forker.
func (f forker) Fork(recs []store.Record) (string, error) {
	meta, ok := f.h.Store().Find(f.id)
	if !ok {
		return "", fmt.Errorf("session %s is not stored", f.id)
	}
	return f.h.copySession(meta, recs, store.LastTitle(recs))
}
