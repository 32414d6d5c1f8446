package sandbox

import "errors"

// ErrWindows is the answer of every sandboxed mode on Windows.
var ErrWindows = errors.New("the command sandbox is not available on Windows; set sandbox to off")

// pick has nothing to choose from on Windows.
func pick(Backend, string) (engine, BackendInfo, error) { return engine{}, BackendInfo{}, ErrWindows }

// seatbeltArgv is unused on Windows.
func seatbeltArgv(string, Mode, bool, []string, []string) ([]string, error) { return nil, ErrWindows }
