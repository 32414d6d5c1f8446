// Package openai is the OpenAI-compatible model provider: it implements
// model.Model on the Chat Completions API through
// github.com/sashabaranov/go-openai, for OpenAI itself and for servers that
// speak the same shape (Ollama, vLLM, the llama.cpp server, OpenRouter, LM
// Studio, ...). It translates model.Request to chat messages and function
// tools, accumulates streamed deltas (content, reasoning, tool calls split
// over many chunks) into model.Chunk values, tells the shared retry loop
// (model.RetryPolicy) which failures to retry and what delay the server
// asked for, and owns the user-facing error sentences. It assumes nothing
// beyond the Chat Completions shape: the API key may be empty, and reasoning
// is read from the non-standard reasoning_content / reasoning delta fields
// when a server sends them.
//
// go-openai sends the request and splits the SSE stream; events are read
// with RecvRaw and decoded into this package's own small chunk type,
// because go-openai's typed delta has reasoning_content but not reasoning
// (which OpenRouter, Ollama and vLLM send) and decoding only what is read
// is cheaper. go-openai was chosen over openai-go for its size (under 1 MB
// of the binary; openai-go's reflection kept about 18 MB of the release
// binary alive) and package init (0.04 ms against up to 3 ms). It has no retries (Provider.do is the only retry layer), reads
// no OPENAI_* environment, and its errors carry no headers, so the
// provider's HTTPDoer (doer) adds Config.Headers, records failed responses
// (status, Retry-After, body) and amends the rare request bodies go-openai's
// omitempty tags would change (see wireFix).
//
// go-openai checks some requests before sending them: for o1/o3/o4/gpt-5
// models it refuses a temperature other than 0 or 1, and for its GPT-6
// model ids (gpt-6-sol, ...) it refuses tools and sampling settings while
// reasoning is on, which companion never turns off; such a request fails at
// once with go-openai's sentence, without reaching the server or retrying.
//
// It imports companion's agent/model and nothing else of companion's own.
package openai
