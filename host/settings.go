package host

import (
	"path/filepath"
	"strings"

	"companion/config"
)

// PendingText tells the user, in one line, which project settings were
// held back, what they would add, and how to accept them.
func PendingText(p *config.PendingSettings) string {
	return "The project settings in " + config.FileNames(p.Files, p.Path) + " are new or changed since you last accepted them, so these parts are not in effect: " +
		strings.Join(p.Adds, "; ") + ". Review the file; to use it, run /accept-settings or `companion settings accept " +
		projectDir(p.Path) + "`. Accepted settings apply to new sessions."
}

// acceptPending records the held-back settings as accepted, as the user
// saw them: a file changed since the session started stays held back.
func acceptPending(cfg config.Config, p *config.PendingSettings) (string, error) {
	if err := cfg.Accept(p.Path, p.Hash); err != nil {
		return "", err
	}
	out := "Accepted " + config.FileNames(p.Files, p.Path) + ". The settings apply to new sessions; start a new session to use them."
	if now, err := config.ReadProjectFile(projectDir(p.Path)); err == nil && now.Hash != p.Hash {
		out += " The settings have changed since this session started: their new content still waits to be accepted."
	}
	return out, nil
}

// projectDir is the project folder of a project settings file.
func projectDir(settingsPath string) string {
	return filepath.Dir(filepath.Dir(settingsPath))
}
