// Package modeltest is the test support the model providers (gemini,
// openai) share: starting a provider against a scripted server, draining
// its streams, reading chunks and recorded request bodies, and the tests
// and benchmarks both providers run alike (server-given delays, giving up,
// cancellation, broken streams, finish reasons, golden request bodies),
// each handed the provider under test as a Start.
//
// It imports companion's agent/model and agent/model/scripted, and only
// test files import it.
package modeltest
