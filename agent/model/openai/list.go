package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"

	"companion/agent/model"
)

var _ model.Lister = (*Provider)(nil)

// maxModelList bounds the answer of GET /models (OpenRouter lists hundreds
// of models with long descriptions).
const maxModelList = 32 << 20

// ListModels asks the server which models it offers (GET /models), sorted.
// It is one request, not retried: the picker falls back to the configured
// model when it fails.
func (p *Provider) ListModels(ctx context.Context) ([]string, error) {
	res, err := p.client.send(ctx, http.MethodGet, "/models", nil, "application/json")
	if err != nil {
		return nil, fmt.Errorf("listing the models of %s: %w", p.base, err)
	}
	defer func() { _ = res.Body.Close() }()
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, maxModelList)).Decode(&list); err != nil {
		return nil, fmt.Errorf("listing the models of %s: reading the answer: %w", p.base, err)
	}
	names := make([]string, 0, len(list.Data))
	for _, m := range list.Data {
		if m.ID != "" {
			names = append(names, m.ID)
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}
