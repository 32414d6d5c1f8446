// Package gemini is the Gemini model provider: it implements model.Model on
// google.golang.org/genai (Gemini Developer API or Vertex AI), translating
// model.Request to genai contents and tools, genai's streamed responses to
// model.Chunk, telling the shared retry loop (model.RetryPolicy) which
// failures to retry and what delay the server asked for, and owning the
// user-facing error sentences.
//
// It imports companion's agent/model and nothing else of companion's own.
package gemini
