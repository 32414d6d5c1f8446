// Package openai is the OpenAI-compatible model provider: it implements
// model.Model on the Chat Completions API through github.com/openai/openai-go,
// for OpenAI itself and for servers that speak the same shape (Ollama, vLLM,
// the llama.cpp server, OpenRouter, LM Studio, ...). It translates
// model.Request to chat messages and function tools, accumulates streamed
// deltas (content, reasoning, tool calls split over many chunks) into
// model.Chunk values, tells the shared retry loop (model.RetryPolicy) which
// failures to retry and what delay the server asked for, and owns the
// user-facing error sentences. It assumes nothing beyond the Chat
// Completions shape: the API key may be empty, and reasoning is read from
// the non-standard reasoning_content / reasoning delta fields when a server
// sends them.
//
// It imports companion's agent/model and nothing else of companion's own.
package openai
