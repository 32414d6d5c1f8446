// Package config turns settings files, the environment and flags into one
// Config value. It imports nothing of companion's own.
//
// The layers, each over the one before (Layers, and Config.Sources says
// which layer set each value):
//
//   - the user's settings: companion's settings.json, then Gemini CLI's
//     ~/.gemini/settings.json and Claude Code's ~/.claude/settings.json for
//     what companion's leaves unset, their permission rules added (Load,
//     foreign.go);
//   - in a trusted workspace only, the project's: .companion/settings.json,
//     then .gemini/settings.json, .claude/settings.json,
//     .claude/settings.local.json and Claude Code's .mcp.json; the parts
//     that grant powers wait until the user accepts the files' content
//     (ReadProjectFile, ApplyProject). An untrusted workspace's files are
//     not read at all;
//   - the environment, with .env files under it: the project's (trusted
//     only, and only the variables projectEnvKey allows), then the user's.
//     A .env value never overrides a variable that is set, and it feeds
//     companion's own settings only: it is not added to the environment of
//     shell commands, hooks or MCP servers;
//   - the flags (applied by internal/cli; ApplyProject keeps them over the
//     project's choices).
//
// The user's folders (dirs.go): settings in $XDG_CONFIG_HOME/companion,
// else %APPDATA%\companion on Windows, else ~/.config/companion (macOS
// too); state in $XDG_STATE_HOME/companion, else %LOCALAPPDATA%\companion
// on Windows, else ~/.local/state/companion. UserEnv, which main wraps
// os.Getenv in, answers HOME from %USERPROFILE% or the account database
// when it is unset, so none of this needs HOME.
//
// Every settings file may have comments and trailing commas, and string
// values may use ${VAR}, $VAR and ${VAR:-default} from the process
// environment (jsonc.go); errors name the file, line and column.
package config
