package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"

	"companion/agent/model"
)

// maxModelName bounds a model id given by a client.
const maxModelName = 200

// modelPicker is the model the next request goes to and those the user
// may pick, with a trial (TrySetModel) and a fallback (quota) on top. It
// has its own lock and writes no journal: its callers do, outside it.
type modelPicker struct {
	// mu guards the fields below.
	mu sync.Mutex
	// current is the model the next request goes to.
	current string
	// trialFrom is the model to go back to while current is on trial;
	// "" when it is not.
	trialFrom string
	// offered are the models the user may pick; never shared with the
	// caller's Options.
	offered []string
}

// newModelPicker starts on current, offering offered (which it copies).
func newModelPicker(current string, offered []string) *modelPicker {
	return &modelPicker{current: current, offered: slices.Clone(offered)}
}

// name is the model the next request goes to.
func (m *modelPicker) name() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.current
}

// list is a copy of the models offered.
func (m *modelPicker) list() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.offered)
}

// set switches to an offered model, ending any trial.
func (m *modelPicker) set(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !slices.Contains(m.offered, name) {
		return fmt.Errorf("%w %q", ErrUnknownModel, name)
	}
	m.current, m.trialFrom = name, ""
	return nil
}

// try switches to name; a model not offered goes on trial. It returns
// the model before and whether the switch is final (to be journalled).
func (m *modelPicker) try(name string) (prev string, final bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	prev, m.current = m.current, name
	if slices.Contains(m.offered, name) || name == prev {
		return prev, true
	}
	m.trialFrom = prev
	return prev, false
}

// confirm ends a trial after a request succeeded: the model joins those
// offered. It returns the model when a trial ended.
func (m *modelPicker) confirm() (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.trialFrom == "" {
		return "", false
	}
	m.trialFrom = ""
	m.offerLocked(m.current)
	return m.current, true
}

// rollback ends a failed trial: the previous model is back.
func (m *modelPicker) rollback() (prev, tried string, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.trialFrom == "" {
		return "", "", false
	}
	prev, tried = m.trialFrom, m.current
	m.trialFrom, m.current = "", prev
	return prev, tried, true
}

// switchTo moves to name and offers it (a fallback, a restored
// session's model). It returns the model before and false when name
// already was the current one.
func (m *modelPicker) switchTo(name string) (from string, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	from = m.current
	if from == name {
		return from, false
	}
	m.current = name
	m.offerLocked(name)
	return from, true
}

// offerLocked adds a model that has worked to those offered; m.mu is
// held.
func (m *modelPicker) offerLocked(name string) {
	if !slices.Contains(m.offered, name) {
		m.offered = append(m.offered, name)
	}
}

// TrySetModel switches the next request to a model that may not be among
// Models (an SDK may name any model its provider serves). The name is
// checked for shape only; the provider has the last word: when the first
// request with an unlisted model fails, the session goes back to the
// previous model, says so with a ModelChanged event and retries. It
// returns the model used before.
func (s *Session) TrySetModel(name string) (string, error) {
	if err := checkModelName(name); err != nil {
		return "", err
	}
	prev, final := s.models.try(name)
	if final {
		s.journal(recSettings, settingsRecord{Model: name})
	}
	return prev, nil
}

// checkModelName accepts provider model ids: letters, digits and . _ - : / @ +.
func checkModelName(name string) error {
	if name == "" || len(name) > maxModelName {
		return fmt.Errorf("%w %q: a model id is 1 to %d characters", ErrUnknownModel, name, maxModelName)
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("._-:/@+", r) {
			return fmt.Errorf("%w %q: %q is not allowed in a model id", ErrUnknownModel, name, r)
		}
	}
	return nil
}

// confirmModel ends a model trial after a request succeeded: the model
// joins the offered ones and is recorded.
func (s *Session) confirmModel() {
	if name, ok := s.models.confirm(); ok {
		s.journal(recSettings, settingsRecord{Model: name})
	}
}

// rollbackModel ends a failed model trial: the previous model is back,
// the user is told, and the request should be tried again.
func (s *Session) rollbackModel(ctx context.Context, err error) bool {
	prev, tried, ok := s.models.rollback()
	if ok {
		s.emit(ctx, ModelChanged{Name: prev, Previous: tried, Reason: err.Error()})
	}
	return ok
}

// fallback switches to the configured fallback model when the current one
// keeps failing for quota (HTTP 429 after the provider's retries), tells
// the user, and reports whether the request should be tried again.
func (s *engine) fallback(ctx context.Context, err error) bool {
	var api *model.APIError
	fb := s.opts.FallbackModel
	if fb == "" || !errors.As(err, &api) || api.Status != 429 {
		return false
	}
	from, ok := s.models.switchTo(fb)
	if !ok {
		return false
	}
	s.journal(recSettings, settingsRecord{Model: fb})
	s.emit(ctx, ModelChanged{Name: fb, Previous: from, Reason: "out of quota: " + api.Error()})
	return true
}
