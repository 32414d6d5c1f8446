package oauth

import (
	"context"
	"os/exec"
	"runtime"
)

// BrowserEnv names a command that opens authorization URLs instead of the
// platform's opener ("none": open nothing); the URL is its one argument.
const BrowserEnv = "COMPANION_OAUTH_BROWSER"

// OpenBrowser opens url with the command BrowserEnv names, else with the
// platform's opener (xdg-open, open, rundll32). It does not wait for the
// browser; the opener is reaped in the background.
func OpenBrowser(ctx context.Context, url string, getenv func(string) string) error {
	var cmd *exec.Cmd
	switch custom := getenv(BrowserEnv); {
	case custom == "none":
		return nil
	case custom != "":
		cmd = exec.CommandContext(ctx, custom, url)
	case runtime.GOOS == "darwin":
		cmd = exec.CommandContext(ctx, "open", url)
	case runtime.GOOS == "windows":
		cmd = exec.CommandContext(ctx, "rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.CommandContext(ctx, "xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}
