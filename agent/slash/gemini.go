package slash

import (
	"maps"
	"path/filepath"
	"slices"
)

// Gemini CLI keeps file commands in the same TOML format (prompt,
// description; {{args}}, !{…}, @{…}) under ~/.gemini/commands and
// <project>/.gemini/commands, so companion reads those folders too.

// Folders lists the command folders, the one that wins last: Gemini CLI's
// user folder (home/.gemini/commands), companion's (userDir/commands),
// then, when projectRoot is set (a trusted workspace), the project's
// .gemini/commands and .companion/commands. Empty arguments add nothing.
func Folders(projectRoot, userDir, home string) []string {
	var dirs []string
	if home != "" {
		dirs = append(dirs, filepath.Join(home, ".gemini", "commands"))
	}
	if userDir != "" {
		dirs = append(dirs, filepath.Join(userDir, "commands"))
	}
	if projectRoot != "" {
		dirs = append(dirs, filepath.Join(projectRoot, ".gemini", "commands"),
			filepath.Join(projectRoot, ".companion", "commands"))
	}
	return dirs
}

// LoadFolders reads the commands under each folder in dirs, a later
// folder's command replacing an earlier one of the same name, sorted by
// name. Like Load, unusable files are skipped and reported and a missing
// folder is not an error.
func LoadFolders(dirs []string) ([]Command, []error) {
	byName := map[string]Command{}
	var errs []error
	for _, dir := range slices.Compact(slices.Clone(dirs)) {
		cmds, dirErrs := loadDir(dir)
		maps.Copy(byName, cmds)
		errs = append(errs, dirErrs...)
	}
	out := make([]Command, 0, len(byName))
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		out = append(out, byName[name])
	}
	return out, errs
}
