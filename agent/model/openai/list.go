package openai

import (
	"context"
	"fmt"
	"slices"

	"companion/agent/model"
)

var _ model.Lister = (*Provider)(nil)

// ListModels asks the server which models it offers (GET /models), sorted.
// It is one request, not retried: the picker falls back to the configured
// model when it fails.
func (p *Provider) ListModels(ctx context.Context) ([]string, error) {
	list, err := p.client.ListModels(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing the models of %s: %w", p.base, err)
	}
	names := make([]string, 0, len(list.Models))
	for _, m := range list.Models {
		if m.ID != "" {
			names = append(names, m.ID)
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}
