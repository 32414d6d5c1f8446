package sandbox

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// pick chooses the backend: bubblewrap when it runs here, else Landlock
// with the seccomp filter, or only the one forced.
func pick(force Backend, helper string) (engine, BackendInfo, error) {
	var reasons []string
	switch force {
	case "", Bwrap, Landlock:
	default:
		return engine{}, BackendInfo{}, fmt.Errorf("%s=%q names no backend: use bwrap or landlock", BackendEnv, force)
	}
	if force == "" || force == Bwrap {
		path, err := checkBwrap()
		if err == nil {
			return engine{backend: Bwrap, path: path}, BackendInfo{Name: Bwrap, Why: "bubblewrap runs here"}, nil
		}
		reasons = append(reasons, err.Error())
	}
	if force == "" || force == Landlock {
		exe, abi, err := checkLandlock(helper)
		if err == nil {
			why := fmt.Sprintf("Landlock ABI %d with a seccomp socket filter", abi)
			if force == Landlock {
				why += " (forced by " + BackendEnv + ")"
			} else {
				why += ", as " + reasons[0]
			}
			return engine{backend: Landlock, path: exe}, BackendInfo{Name: Landlock, Why: why}, nil
		}
		reasons = append(reasons, "Landlock cannot run either: "+err.Error())
	}
	return engine{}, BackendInfo{}, errors.New(strings.Join(reasons, "; "))
}

// checkLandlock finds what the Landlock backend needs: the kernel's
// Landlock, the seccomp filter for this machine and the helper executable.
func checkLandlock(helper string) (string, int, error) {
	abi, err := landlockABI()
	if err != nil {
		return "", 0, err
	}
	if _, err := seccompArch(); err != nil {
		return "", 0, err
	}
	if helper != "" {
		return helper, abi, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", 0, fmt.Errorf("cannot find companion's executable for the helper: %w", err)
	}
	if strings.HasSuffix(exe, ".test") {
		return "", 0, errors.New("a test binary is not the sandbox helper (set Sandbox.Helper)")
	}
	return exe, abi, nil
}

// seatbeltArgv is unused on Linux.
func seatbeltArgv(string, Mode, bool, []string, []string) ([]string, error) {
	return nil, errors.New("seatbelt is macOS only")
}
