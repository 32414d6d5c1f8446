// Package agenttest holds the test doubles that agent's own tests,
// agent/command's and host's share: a scripted in-process model, an
// in-memory journal and forker, an event recorder and an echo tool.
//
// It imports no package that imports agent, so agent's internal tests
// (package agent) can use it as well as the packages above agent. Tests
// only: no production package imports it.
package agenttest
