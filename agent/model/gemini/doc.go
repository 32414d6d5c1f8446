// Package gemini is the Gemini model provider: it implements model.Model
// for the Gemini Developer API and Vertex AI, translating model.Request to
// genai's contents and tools, streamed responses to model.Chunk, telling
// the shared retry loop (model.RetryPolicy) which failures to retry and
// what delay the server asked for, and owning the user-facing error
// sentences.
//
// On the Gemini Developer API, Stream calls streamGenerateContent itself
// (rest.go, stream.go): the request body is a typed struct of genai's
// types marshalled once, and the reply is read with internal/sse and each
// event decoded by one json.Unmarshal straight into
// genai.GenerateContentResponse, after one collection when the event is
// over 16 MiB (releaseBeforeDecode). genai's own stream reader keeps about
// five copies of a large chunk alive (a doubling line buffer, a map, a
// re-encode, a decode; 15× the event allocated for one 32 MiB event, 4×
// here). Vertex AI still streams through genai's GenerateContentStream,
// with that cost, because its credentials and URLs are genai's; CountTokens
// and the search helper use genai too.
//
// It imports companion's agent/model and internal/sse and nothing else of
// companion's own.
package gemini
