package companion

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxPortFile bounds how much of a port file is read.
const maxPortFile = 64 << 10

// portFileName is what a port file's name says: the editor process, and
// whether it is the legacy name without the port.
type portFileName struct {
	pid    int
	legacy bool
}

// parsePortFileName reads gemini-ide-server-<pid>-<port>.json and the legacy
// gemini-ide-server-<pid>.json.
func parsePortFileName(name string) (portFileName, bool) {
	rest, ok := strings.CutPrefix(name, "gemini-ide-server-")
	if !ok {
		return portFileName{}, false
	}
	if rest, ok = strings.CutSuffix(rest, ".json"); !ok {
		return portFileName{}, false
	}
	pidText, portText, hasPort := strings.Cut(rest, "-")
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 || !allDigits(pidText) {
		return portFileName{}, false
	}
	if !hasPort {
		return portFileName{pid: pid, legacy: true}, true
	}
	if !allDigits(portText) {
		return portFileName{}, false
	}
	return portFileName{pid: pid}, true
}

// allDigits reports whether s is only ASCII digits (Atoi takes signs too).
func allDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// portFile is the JSON an IDE server writes.
type portFile struct {
	Port          flexPort `json:"port"`
	WorkspacePath string   `json:"workspacePath"`
	AuthToken     string   `json:"authToken"`
	IDEInfo       *IDEInfo `json:"ideInfo"`
}

// flexPort is a port written as a JSON number or string.
type flexPort int

// UnmarshalJSON accepts 1234 and "1234".
func (p *flexPort) UnmarshalJSON(b []byte) error {
	b = bytes.Trim(b, `"`)
	n, err := strconv.Atoi(string(b))
	if err != nil || n <= 0 || n > 65535 {
		return fmt.Errorf("port %s: not a port", b)
	}
	*p = flexPort(n)
	return nil
}

// candidates lists the usable port files: well named, regular, owned by the
// current user, of a live process, well formed, and serving the working
// directory. A directory that cannot be read yields none.
func (o DiscoverOptions) candidates() []candidate {
	dir := filepath.Join(o.TempDir, filepath.FromSlash(PortFileDir))
	entries, err := os.ReadDir(dir)
	if err != nil {
		o.Log.Debug("no IDE port files", "dir", dir, "err", err)
		return nil
	}
	var out []candidate
	for _, e := range entries {
		name, ok := parsePortFileName(e.Name())
		if !ok {
			continue
		}
		c, err := o.readCandidate(filepath.Join(dir, e.Name()), name)
		if err != nil {
			o.Log.Debug("IDE port file skipped", "file", e.Name(), "err", err)
			continue
		}
		out = append(out, c)
	}
	return out
}

// readCandidate checks and reads one port file.
func (o DiscoverOptions) readCandidate(path string, name portFileName) (candidate, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return candidate{}, err
	}
	if !info.Mode().IsRegular() {
		return candidate{}, fmt.Errorf("not a regular file (%s)", info.Mode().Type())
	}
	if !o.OwnedByUser(info) {
		return candidate{}, fmt.Errorf("owned by another user")
	}
	if !processAlive(o.ProcRoot, name.pid) {
		return candidate{}, fmt.Errorf("stale: process %d is gone", name.pid)
	}
	pf, err := readPortFile(path)
	if err != nil {
		return candidate{}, err
	}
	ws := splitWorkspace(pf.WorkspacePath)
	if !containsDir(ws, o.Cwd) {
		return candidate{}, fmt.Errorf("workspace %q does not hold %s", pf.WorkspacePath, o.Cwd)
	}
	return candidate{
		ep: Endpoint{
			Port:           int(pf.Port),
			AuthToken:      pf.AuthToken,
			WorkspacePaths: ws,
			PID:            name.pid,
			IDE:            pf.IDEInfo,
			File:           path,
		},
		legacy: name.legacy,
		mtime:  info.ModTime().UnixNano(),
	}, nil
}

// readPortFile reads and decodes a port file, at most maxPortFile bytes.
func readPortFile(path string) (portFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return portFile{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPortFile))
	if err != nil {
		return portFile{}, err
	}
	var pf portFile
	if err := json.Unmarshal(data, &pf); err != nil {
		return portFile{}, fmt.Errorf("malformed: %w", err)
	}
	if pf.Port == 0 {
		return portFile{}, fmt.Errorf("malformed: no port")
	}
	return pf, nil
}
