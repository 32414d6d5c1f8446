// Package sse reads Server-Sent Events streams (the text/event-stream
// format of the HTML Living Standard, §9.2.6): the framing that streamed
// model APIs (OpenAI's Chat Completions, OpenRouter, Ollama, vLLM,
// Gemini's streamGenerateContent?alt=sse) put their JSON events in.
//
// A Reader turns a response body into Events: it joins multi-line data
// with "\n", keeps the event type and id, skips comment lines (": keep-alive",
// OpenRouter's ": OPENROUTER PROCESSING") and fields it does not know,
// accepts LF, CRLF and bare CR line endings and a leading byte order mark,
// and bounds every line and every event's data by a limit, failing with
// ErrTooLong past it instead of growing without end. What the data means
// is the caller's business; Event.Done recognises the "[DONE]" sentinel
// that OpenAI-style APIs send last.
//
// One huge event (a model's tool call carrying a whole file) is held
// about once: a line longer than 1 MiB is read in blocks and joined once,
// the first data line becomes the event's data without a copy, and a
// buffer over 1 MiB is not kept for the next event, so it is freed once
// the caller lets go of the event.
//
// Two choices differ from the standard, both on the side of keeping what
// the server sent: an event whose stream ends without the closing blank
// line is still returned (some servers omit it), and the "retry" field is
// ignored (the caller decides whether to reconnect).
//
// It is a leaf: it imports only the standard library, so any provider or
// client in companion can share it.
package sse
