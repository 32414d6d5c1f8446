// Package secrets keeps credentials out of what companion hands on: the
// environment of shell commands drops variables whose names look like
// credentials (ShellEnv), and a Redactor replaces the configured key
// values with "[redacted]" in session journals, log output and messages
// to the editor. It imports nothing of companion.
package secrets
