// Package scripted serves a scripted language model over real HTTP on
// 127.0.0.1 in the Gemini REST shape (streamGenerateContent with SSE,
// generateContent, countTokens), so tests and the offline demo
// (`companion acp --script FILE`) run the real genai client code against it.
// The script format is described in README.md. NewOpenAIServer serves the
// same scripts in the OpenAI Chat Completions shape: see OPENAI.md.
//
// It imports nothing of companion's own.
package scripted
