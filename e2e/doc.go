// Package e2e drives the real companion binary over pipes, as an editor
// would, with the scripted model behind it. Its tests build the binary once
// (TestMain) and check every message in both directions against the pinned
// ACP schema.
package e2e
