// Package model defines the provider-neutral conversation types and the Model
// interface that the agent's turn loop talks to. Providers (gemini, openai,
// scripted) live in subpackages and translate these types to their wire.
//
// It imports nothing of companion's own.
package model
