package oauth

import "time"

// lockWait bounds how long the context-less Save and Delete wait for the
// lock (another process holds it at most for one token request).
const lockWait = 30 * time.Second

// lockPath is the lock file beside the grants file at path: the
// cross-process lock (internal/filelock) every change to the file takes.
func lockPath(path string) string { return path + ".lock" }
