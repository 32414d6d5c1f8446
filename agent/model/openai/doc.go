// Package openai is the OpenAI-compatible model provider: it implements
// model.Model on the Chat Completions API, for OpenAI itself and for
// servers that speak the same shape (Ollama, vLLM, the llama.cpp server,
// OpenRouter, LM Studio, ...), with a small client of its own on net/http.
//
// The parts, one file each:
//   - wire.go: the request as typed structs, marshalled once per Stream
//     call; every attempt sends the same bytes, and nothing rewrites them.
//   - convert.go: model.Request to chat messages and function tools.
//   - client.go: one HTTP request (key, configured headers, cancellation
//     through ctx) and an error answer read into a *statusError (status,
//     Retry-After / retry-after-ms, the start of the body).
//   - stream.go: the SSE stream read with companion/internal/sse (comments,
//     CRLF, bounded events, "[DONE]") and decoded into chunks; an error
//     event becomes an *eventError.
//   - response.go: deltas (content, reasoning, tool calls split over many
//     chunks) accumulated into model.Chunk values, with usage.
//   - args.go: a tool call's argument text, gathered from its deltas in
//     blocks and joined once into a slice of its exact size, then decoded
//     once. Before a text of 16 MiB or more is decoded, memory is
//     released (model.ReleaseBeforeDecode), so a write_file of 200 MiB streamed a few
//     bytes per delta peaks at 3x the content plus a constant, as on the
//     Gemini path (bench/README.md).
//   - retry.go and errmsg.go: the shared retry loop (model.RetryPolicy:
//     backoff, the server's delay) told which failures to retry, and the
//     user-facing error sentences.
//
// It assumes nothing beyond the Chat Completions shape: the API key may be
// empty, and reasoning is read from the non-standard reasoning_content /
// reasoning delta fields when a server sends them. It refuses no model by
// name: what a model accepts is the server's to say. The one adaptation is
// to the server's own answer: a 400 that names the temperature parameter
// (OpenAI's o-series and gpt-5 take only their default) makes Stream ask
// once more without the temperature.
//
// A client of its own replaced github.com/sashabaranov/go-openai, which
// needed its request bodies amended after marshalling, a filter under its
// SSE reader and context values to carry what its errors lost, and refused
// some model names before asking the server; the official openai-go was
// measured at +19.6 MB of stripped binary, over the 40 MB guard.
//
// It imports companion's agent/model and internal/sse, nothing else of
// companion's own.
package openai
