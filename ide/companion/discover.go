package companion

import (
	"cmp"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The environment an IDE sets in its integrated terminals.
const (
	EnvPort          = "GEMINI_CLI_IDE_SERVER_PORT"
	EnvWorkspacePath = "GEMINI_CLI_IDE_WORKSPACE_PATH"
	EnvAuthToken     = "GEMINI_CLI_IDE_AUTH_TOKEN"
	// EnvPID names the editor process meant, overriding the process tree.
	EnvPID = "GEMINI_CLI_IDE_PID"
)

// PortFileDir is where IDE servers write their port files, under the
// temporary directory.
const PortFileDir = "gemini/ide"

// IDEInfo names the editor, when its port file says.
type IDEInfo struct {
	Name        string `json:"name"`
	DisplayName string `json:"displayName"`
}

// Endpoint is one IDE server the agent can connect to.
type Endpoint struct {
	// Port is the server's port on 127.0.0.1.
	Port int
	// AuthToken goes into every request as a bearer token.
	AuthToken string
	// WorkspacePaths are the editor window's workspace folders.
	WorkspacePaths []string
	// PID is the editor process named by the port file; 0 from the
	// environment alone.
	PID int
	// IDE names the editor; nil when the port file does not say.
	IDE *IDEInfo
	// File is the port file read; "" when the endpoint came from the
	// environment alone.
	File string
}

// URL is the server's one MCP endpoint.
func (e *Endpoint) URL() string {
	return "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(e.Port)) + "/mcp"
}

// DiscoverOptions is what Discover reads, every field replaceable so that
// tests fake the machine. Zero values mean the real one.
type DiscoverOptions struct {
	// Getenv reads the environment (nil: os.Getenv).
	Getenv func(string) string
	// TempDir holds PortFileDir ("": os.TempDir()).
	TempDir string
	// Cwd is the agent's working directory ("": os.Getwd()).
	Cwd string
	// PID is the agent's process ID, where the walk up the process tree
	// starts (0: os.Getpid()).
	PID int
	// ProcRoot is the proc file system ("": /proc on Linux, none
	// elsewhere). Without it the process-tree preference is skipped and
	// liveness is asked of the kernel by signal 0.
	ProcRoot string
	// OwnedByUser reports whether a port file belongs to the current user
	// (nil: its owner uid equals os.Getuid(); always true where files have
	// no uid).
	OwnedByUser func(fs.FileInfo) bool
	// Log receives why files were skipped (nil: discarded).
	Log *slog.Logger
}

// DiscoverOnce returns a function that runs Discover the first time it is
// called and returns that answer ever after, so the work happens lazily and
// once.
func DiscoverOnce(opts DiscoverOptions) func() (*Endpoint, error) {
	return sync.OnceValues(func() (*Endpoint, error) { return Discover(opts) })
}

// Discover finds the IDE server for the working directory: among the port
// files of live editor processes owned by the current user whose workspace
// holds the directory, the one of the editor named by GEMINI_CLI_IDE_PID or
// else the nearest editor process above the agent, then the one on the port
// in GEMINI_CLI_IDE_SERVER_PORT, then the newest file. Without such a file,
// the environment alone names the server when it sets a port (and, if it
// sets a workspace, the directory is inside it). Otherwise it fails with
// ErrNotFound.
func Discover(opts DiscoverOptions) (*Endpoint, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	cands := o.candidates()
	if len(cands) > 0 {
		best := o.pick(cands)
		ep := best.ep
		if ep.AuthToken == "" {
			ep.AuthToken = o.Getenv(EnvAuthToken)
		}
		o.Log.Debug("IDE companion server found", "file", ep.File, "port", ep.Port)
		return &ep, nil
	}
	return o.fromEnv()
}

// withDefaults fills in the real machine for zero fields.
func (o DiscoverOptions) withDefaults() (DiscoverOptions, error) {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.TempDir == "" {
		o.TempDir = os.TempDir()
	}
	if o.Cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return o, fmt.Errorf("%w: working directory: %w", ErrNotFound, err)
		}
		o.Cwd = wd
	}
	if o.PID == 0 {
		o.PID = os.Getpid()
	}
	if o.ProcRoot == "" && runtime.GOOS == "linux" {
		o.ProcRoot = "/proc"
	}
	if o.OwnedByUser == nil {
		o.OwnedByUser = ownedByCurrentUser
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	o.Cwd = realPath(o.Cwd)
	return o, nil
}

// candidate is a usable port file.
type candidate struct {
	ep     Endpoint
	legacy bool
	mtime  int64
}

// pick ranks the candidates: the editor process meant first, then the port
// in the environment, then new-style names, then the newest file.
func (o DiscoverOptions) pick(cands []candidate) candidate {
	if len(cands) == 1 {
		return cands[0]
	}
	pidRank := o.editorRanks()
	rank := func(c candidate) int {
		if r, ok := pidRank[c.ep.PID]; ok {
			return r
		}
		return len(pidRank) + 1
	}
	envPort := strings.TrimSpace(o.Getenv(EnvPort))
	portRank := func(c candidate) int {
		if envPort != "" && strconv.Itoa(c.ep.Port) == envPort {
			return 0
		}
		return 1
	}
	return slices.MinFunc(cands, func(a, b candidate) int {
		return cmp.Or(
			cmp.Compare(rank(a), rank(b)),
			cmp.Compare(portRank(a), portRank(b)),
			compareBool(a.legacy, b.legacy),
			cmp.Compare(b.mtime, a.mtime),
			cmp.Compare(a.ep.File, b.ep.File),
		)
	})
}

// editorRanks maps editor process IDs to their preference (lower is
// better): GEMINI_CLI_IDE_PID alone when set, else the agent's ancestors,
// nearest first.
func (o DiscoverOptions) editorRanks() map[int]int {
	if pid, err := strconv.Atoi(strings.TrimSpace(o.Getenv(EnvPID))); err == nil && pid > 0 {
		return map[int]int{pid: 0}
	}
	ranks := map[int]int{}
	for i, pid := range ancestors(o.ProcRoot, o.PID) {
		if _, seen := ranks[pid]; !seen {
			ranks[pid] = i
		}
	}
	return ranks
}

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	default:
		return 1
	}
}

// fromEnv builds the endpoint from the environment alone.
func (o DiscoverOptions) fromEnv() (*Endpoint, error) {
	portText := strings.TrimSpace(o.Getenv(EnvPort))
	if portText == "" {
		return nil, ErrNotFound
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port <= 0 || port > 65535 {
		return nil, fmt.Errorf("%w: %s=%q is not a port", ErrNotFound, EnvPort, portText)
	}
	ws := splitWorkspace(o.Getenv(EnvWorkspacePath))
	if len(ws) > 0 && !containsDir(ws, o.Cwd) {
		return nil, fmt.Errorf("%w: %s is outside the IDE workspace", ErrNotFound, o.Cwd)
	}
	return &Endpoint{Port: port, AuthToken: o.Getenv(EnvAuthToken), WorkspacePaths: ws}, nil
}

// splitWorkspace splits a path list, dropping empty entries.
func splitWorkspace(list string) []string {
	var out []string
	for _, p := range filepath.SplitList(list) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// containsDir reports whether dir (already real) is one of the workspace
// folders or inside one.
func containsDir(workspace []string, dir string) bool {
	for _, ws := range workspace {
		rel, err := filepath.Rel(realPath(ws), dir)
		if err != nil || filepath.IsAbs(rel) {
			continue
		}
		if rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))) {
			return true
		}
	}
	return false
}

// realPath resolves symbolic links where it can, so that /tmp and
// /private/tmp compare equal; otherwise it cleans the path.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}
