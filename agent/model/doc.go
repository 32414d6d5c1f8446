// Package model defines the provider-neutral conversation types and the Model
// interface that the agent's turn loop talks to. Providers (gemini, openai,
// scripted) live in subpackages and translate these types to their wire.
// It also holds what the providers share, so that they retry and fail
// alike: RetryPolicy with its retry loop (Do), Retry-After parsing, the
// wording of transport failures, and small helpers for the one-sentence
// messages of APIError.
//
// It imports nothing of companion's own.
package model
