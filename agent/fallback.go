package agent

import (
	"context"
	"errors"

	"companion/agent/model"
)

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
