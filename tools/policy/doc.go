// Package policy decides, for every tool call, whether it runs, is refused
// or needs the user's answer: one place that combines the approval mode,
// the rules from user and project settings, the answers the user gave
// earlier in the session ("always allow ..."), folder trust and the
// session roots. Rules are read in companion's syntax and in Claude
// Code's (claude.go), which is translated into companion's. It imports
// tools only.
package policy
