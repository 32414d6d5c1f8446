package host

import (
	"context"
	"testing"

	"companion/config"
)

// TestModelsRebuildOnSettingsChange: the same provider settings give the
// same provider; changed ones (a key set by authenticate, another
// provider) give a new one instead of the first ever built.
func TestModelsRebuildOnSettingsChange(t *testing.T) {
	ms := NewModels(nil)
	defer ms.Close()
	ctx := context.Background()
	base := config.Config{Script: "demo", Model: "m1"}
	first, err := ms.Get(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	same := base
	same.Model = "m2" // the model name is chosen per request, not per provider
	if m, err := ms.Get(ctx, same); err != nil || m != first {
		t.Fatalf("unchanged provider settings: got a new provider (%v)", err)
	}
	for _, tc := range []struct {
		name   string
		change func(*config.Config)
	}{
		{"api key", func(c *config.Config) { c.APIKey = "new-key" }},
		{"provider", func(c *config.Config) { c.Provider = config.ProviderOpenAI }},
		{"text protocol", func(c *config.Config) { c.TextProtocol = true }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := base
			tc.change(&cfg)
			m, err := ms.Get(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if m == first {
				t.Fatal("changed provider settings: got the first provider again")
			}
			if again, _ := ms.Get(ctx, cfg); again != m {
				t.Error("the rebuilt provider is not kept for the same settings")
			}
		})
	}
}
