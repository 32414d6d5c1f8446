// Package registry holds companion's entry for the ACP Registry
// (github.com/agentclientprotocol/registry), in the registry's own layout:
// companion/agent.json and companion/icon.svg, copied as they are into a
// pull request to the registry. The package has no code; its test checks
// the entry against the registry's schema (vendored in testdata), against
// the registry CI's other offline checks, and against the Zed extension's
// manifest, which lists the same release archives.
package registry
