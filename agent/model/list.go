package model

import "context"

// Lister is implemented by providers that can say which models their
// server offers (an OpenAI-compatible server's GET /models), for the
// editor's model picker.
type Lister interface {
	ListModels(ctx context.Context) ([]string, error)
}
