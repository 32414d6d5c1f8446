package cli

import (
	"companion/config"
	"companion/credentials"
)

// Credentials is the store `companion login` writes, for the user config
// folder of cfg.
func Credentials(cfg config.Config, getenv func(string) string) *credentials.Store {
	return credentials.New(cfg.ConfigDir(), getenv)
}

// fillStoredKeys takes the keys `companion login` stored where neither the
// environment nor the settings give one. A scripted model needs none.
func fillStoredKeys(cfg *config.Config, getenv func(string) string) {
	if cfg.Script != "" || cfg.ConfigDir() == "" {
		return
	}
	store := Credentials(*cfg, getenv)
	if cfg.APIKey == "" && !cfg.VertexAI {
		if v, err := store.Get(credentials.GeminiAPIKey); err == nil && v != "" {
			cfg.APIKey, cfg.Sources["apiKey"] = v, "companion login"
		}
	}
	if cfg.OpenAI.APIKey == "" && cfg.Provider == config.ProviderOpenAI {
		if v, err := store.Get(credentials.OpenAIAPIKey); err == nil && v != "" {
			cfg.OpenAI.APIKey = v
		}
	}
}
