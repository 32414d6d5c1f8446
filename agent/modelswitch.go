package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// maxModelName bounds a model id given by a client.
const maxModelName = 200

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
	s.mu.Lock()
	prev := s.modelName
	s.modelName = name
	if slices.Contains(s.opts.Models, name) || name == prev {
		s.mu.Unlock()
		s.journal(recSettings, settingsRecord{Model: name})
		return prev, nil
	}
	s.trialFrom = prev
	s.mu.Unlock()
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
	s.mu.Lock()
	if s.trialFrom == "" {
		s.mu.Unlock()
		return
	}
	s.trialFrom = ""
	name := s.modelName
	s.offerModel(name)
	s.mu.Unlock()
	s.journal(recSettings, settingsRecord{Model: name})
}

// rollbackModel ends a failed model trial: the previous model is back,
// the user is told, and the request should be tried again.
func (s *Session) rollbackModel(ctx context.Context, err error) bool {
	s.mu.Lock()
	prev, tried := s.trialFrom, s.modelName
	if prev == "" {
		s.mu.Unlock()
		return false
	}
	s.trialFrom, s.modelName = "", prev
	s.mu.Unlock()
	s.emit(ctx, ModelChanged{Name: prev, Previous: tried, Reason: err.Error()})
	return true
}

// offerModel adds a model that has worked to the list the user may pick
// from. The caller holds s.mu.
func (s *Session) offerModel(name string) {
	if !slices.Contains(s.opts.Models, name) {
		// Clip: the list may share its array with the caller's options.
		s.opts.Models = append(slices.Clip(s.opts.Models), name)
	}
}
