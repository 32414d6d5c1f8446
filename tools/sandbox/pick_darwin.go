package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// pick chooses Seatbelt (sandbox-exec) on macOS.
func pick(force Backend, _ string) (engine, BackendInfo, error) {
	if force != "" && force != Seatbelt {
		return engine{}, BackendInfo{}, fmt.Errorf("%s=%q: only seatbelt runs on macOS", BackendEnv, force)
	}
	path, err := exec.LookPath("sandbox-exec")
	if err != nil {
		return engine{}, BackendInfo{}, errors.New("sandbox-exec is not on PATH")
	}
	return engine{backend: Seatbelt, path: path}, BackendInfo{Name: Seatbelt, Why: "sandbox-exec with a generated profile"}, nil
}

// seatbeltArgv wraps argv for sandbox-exec, with a new private temporary
// folder as its TMPDIR (macOS clears old ones from its temporary area).
func seatbeltArgv(sandboxExec string, m Mode, network bool, roots, argv []string) ([]string, error) {
	tmp, err := os.MkdirTemp("", "companion-sandbox-")
	if err != nil {
		return nil, fmt.Errorf("temporary folder: %w", err)
	}
	if real, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = real
	}
	return seatbeltCommand(sandboxExec, m, network, roots, tmp, argv), nil
}
