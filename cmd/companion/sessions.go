package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"companion/headless"
	"companion/host"
)

// sessionCommand runs --list-sessions or --delete-session when f holds
// one (done), as Gemini CLI has them: this folder's stored sessions,
// numbered oldest first, so the numbers are those -r N resumes. name is
// the command as typed; words, a prompt given as words, is refused.
func sessionCommand(name string, f runFlags, words string, stdout, stderr io.Writer, getenv func(string) string) (int, bool) {
	if !f.listSessions && f.deleteSession == "" {
		return 0, false
	}
	switch {
	case f.listSessions && f.deleteSession != "":
		fmt.Fprintf(stderr, "%s: --list-sessions and --delete-session: one at a time\n", name)
		return headless.ExitUsage, true
	case f.prompt != "" || words != "" || f.resume != "":
		fmt.Fprintf(stderr, "%s: --list-sessions and --delete-session take no prompt and no --resume\n", name)
		return headless.ExitUsage, true
	}
	env, code := setUp(f, stderr, getenv)
	if env == nil {
		return code, true
	}
	defer env.close()
	h := host.New(env.host())
	if f.listSessions {
		return listSessions(name, h, env.cwd, stdout, stderr, time.Now()), true
	}
	return deleteSession(name, h, f.deleteSession, env.cwd, stdout, stderr, time.Now()), true
}

// listSessions prints cwd's stored sessions, one a line in Gemini CLI's
// shape: number, title, age, id.
func listSessions(name string, h *host.Host, cwd string, stdout, stderr io.Writer, now time.Time) int {
	infos, err := h.Numbered(cwd)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return headless.ExitError
	}
	if len(infos) == 0 {
		fmt.Fprintf(stdout, "No stored sessions in %s.\n", cwd)
		return headless.ExitOK
	}
	fmt.Fprintf(stdout, "Stored sessions of this folder (%d), oldest first; resume one with -r N:\n", len(infos))
	for i, info := range infos {
		fmt.Fprintf(stdout, "  %d. %s (%s) [%s]\n", i+1, info.Title, ago(now.Sub(info.UpdatedAt)), info.ID)
	}
	return headless.ExitOK
}

// deleteSession deletes the stored session of cwd that which names (a
// number in the list, or an id).
func deleteSession(name string, h *host.Host, which, cwd string, stdout, stderr io.Writer, now time.Time) int {
	info, err := h.StoredSession(which, cwd)
	if err != nil {
		fmt.Fprintf(stderr, "%s: cannot delete: %v\n", name, err)
		if errors.Is(err, host.ErrNoStoredSession) {
			return headless.ExitUsage
		}
		return headless.ExitError
	}
	if err := h.Delete(info.ID); err != nil {
		fmt.Fprintf(stderr, "%s: cannot delete: %v\n", name, err)
		return headless.ExitError
	}
	fmt.Fprintf(stdout, "Deleted session %s: %s (%s) [%s]\n", which, info.Title, ago(now.Sub(info.UpdatedAt)), info.ID)
	return headless.ExitOK
}

// ago says how long ago d was, in the largest whole unit.
func ago(d time.Duration) string {
	unit := func(n int, one string) string {
		if n == 1 {
			return "1 " + one + " ago"
		}
		return fmt.Sprintf("%d %ss ago", n, one)
	}
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return unit(int(d/time.Minute), "minute")
	case d < 24*time.Hour:
		return unit(int(d/time.Hour), "hour")
	}
	return unit(int(d/(24*time.Hour)), "day")
}
