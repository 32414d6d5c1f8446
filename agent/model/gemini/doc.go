// Package gemini is the Gemini model provider: it implements model.Model
// for the Gemini Developer API and Vertex AI, translating model.Request to
// genai's contents and tools, streamed responses to model.Chunk, telling
// the shared retry loop (model.RetryPolicy) which failures to retry and
// what delay the server asked for, and owning the user-facing error
// sentences.
//
// Stream calls streamGenerateContent itself on both APIs (rest.go,
// stream.go): the request body is a typed struct of genai's types
// marshalled once, and the reply is read with internal/sse and each event
// decoded by one json.Unmarshal straight into
// genai.GenerateContentResponse, after memory is released when the event
// is 16 MiB or more (model.ReleaseBeforeDecode). genai's own stream reader keeps about
// five copies of a large chunk alive (a doubling line buffer, a map, a
// re-encode, a decode; 15.6× a 16 MiB event allocated, 4.3× here, on
// either API).
//
// On Vertex AI (vertex.go) the request goes where genai would send it and
// is authenticated as genai authenticates it: the genai client is still
// built (genaiClient), and its resolved configuration gives the base URL
// (regional, multi-regional "eu"/"us", global, or a proxy), the API
// version, the project and location that survive genai's precedence
// rules, and the express-mode key; application-default credentials are
// genai's (ClientConfig.UseDefaultCredentials, cloud.google.com/go/auth
// with the cloud-platform scope), attached to the provider's HTTP client,
// which both clients send with. Every Vertex configuration streams through
// companion's client; genai's GenerateContentStream is no longer called.
// Only the User-Agent and x-goog-api-client headers differ from genai's
// (companion names itself, as on the Gemini API). CountTokens and the
// search helper use genai's client.
//
// It imports companion's agent/model and internal/sse and nothing else of
// companion's own.
package gemini
