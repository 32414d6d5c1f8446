// Package websearch is the google_web_search tool: the model asks a
// question and gets an answer drawn from a web search, with numbered
// citation markers and the list of sources. The search itself is a
// Backend: Gemini's Google Search grounding (adapted by the host from the
// session's Gemini provider, or one built from the webSearch settings) or
// a SearXNG instance's JSON API (SearXNG, here). With no backend there is
// no tool, never one that always fails.
//
// It imports the tool core (tools) only.
package websearch
