package config

import "strings"

// ShellEnvironment adjusts the environment of shell commands. By default
// variables whose names look like credentials (*_API_KEY, *_TOKEN,
// *_SECRET, *PASSWORD*, *_CREDENTIALS, the keys companion reads) are
// dropped; Include re-admits names and Exclude drops more, both as globs
// matched without regard to case.
type ShellEnvironment struct {
	Include []string `json:"include,omitempty"`
	Exclude []string `json:"exclude,omitempty"`
}

// Secrets returns the credential values c holds (API keys, the OpenAI
// endpoint's authorization headers), so they can be kept out of commands,
// session files, logs and messages.
func (c *Config) Secrets() []string {
	out := []string{c.APIKey, c.OpenAI.APIKey, c.WebSearch.APIKey}
	for name, v := range c.OpenAI.Headers {
		n := strings.ToLower(name)
		if strings.Contains(n, "auth") || strings.Contains(n, "key") || strings.Contains(n, "token") || strings.Contains(n, "secret") {
			_, bare, found := strings.Cut(v, " ") // "Bearer sk-..."
			if !found {
				bare = v
			}
			out = append(out, v, bare)
		}
	}
	var keep []string
	for _, v := range out {
		if v != "" {
			keep = append(keep, v)
		}
	}
	return keep
}
