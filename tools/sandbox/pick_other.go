//go:build !linux && !darwin && !windows

package sandbox

import (
	"errors"
	"runtime"
)

// pick has nothing to choose from on this system.
func pick(Backend, string) (engine, BackendInfo, error) {
	return engine{}, BackendInfo{}, errors.New("the command sandbox is not available on " + runtime.GOOS + "; set sandbox to off")
}

// seatbeltArgv is unused here.
func seatbeltArgv(string, Mode, bool, []string, []string) ([]string, error) {
	return nil, errors.New("seatbelt is macOS only")
}
