package config

import (
	"os"
	"os/user"
	"path/filepath"
	"runtime"
	"sync"
)

// UserEnv wraps getenv so that HOME always has an answer where one can be
// found: HOME itself, else %USERPROFILE% on Windows, else the home folder
// of the account companion runs as (accountHome, such as AccountHome). Every
// reader of HOME downstream (the settings and state folders, ~/.gemini,
// ~/.claude, the home .env file, user skills) then works in a service or
// container started without HOME. Other variables pass through unchanged.
// accountHome is asked at most once.
func UserEnv(getenv func(string) string, accountHome func() (string, error)) func(string) string {
	return userEnv(getenv, runtime.GOOS, accountHome)
}

// userEnv is UserEnv for a given operating system.
func userEnv(getenv func(string) string, goos string, accountHome func() (string, error)) func(string) string {
	account := sync.OnceValue(func() string {
		if accountHome == nil {
			return ""
		}
		h, err := accountHome()
		if err != nil || !filepath.IsAbs(h) {
			return ""
		}
		return h
	})
	return func(k string) string {
		v := getenv(k)
		if k != "HOME" || v != "" {
			return v
		}
		if goos == "windows" {
			if p := getenv("USERPROFILE"); p != "" {
				return p
			}
		}
		return account()
	}
}

// AccountHome is the home folder the account database (/etc/passwd, the
// Windows profile) gives the user companion runs as.
func AccountHome() (string, error) {
	u, err := user.Current()
	if err != nil {
		return "", err
	}
	return u.HomeDir, nil
}

// userConfigBase is the folder companion's config folder lives in:
// $XDG_CONFIG_HOME, else %APPDATA% on Windows, else ~/.config (macOS
// included, as for most command-line tools there). "" when none is known.
func userConfigBase(getenv func(string) string, goos string) string {
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		return d
	}
	if goos == "windows" {
		if d := getenv("APPDATA"); d != "" {
			return d
		}
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".config")
	}
	return ""
}

// userStateBase is the folder companion's state folder lives in:
// $XDG_STATE_HOME, else %LOCALAPPDATA% on Windows, else ~/.local/state.
// "" when none is known.
func userStateBase(getenv func(string) string, goos string) string {
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return d
	}
	if goos == "windows" {
		if d := getenv("LOCALAPPDATA"); d != "" {
			return d
		}
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "state")
	}
	return ""
}

// settingsPathFor is settingsPath for a given operating system.
func settingsPathFor(getenv func(string) string, goos string) string {
	if p := getenv("COMPANION_SETTINGS"); p != "" {
		return p
	}
	if base := userConfigBase(getenv, goos); base != "" {
		return filepath.Join(base, "companion", "settings.json")
	}
	return ""
}

// stateDirFor is stateDir for a given operating system; with no folder
// known at all, a folder in the system temp directory.
func stateDirFor(getenv func(string) string, goos string) string {
	if base := userStateBase(getenv, goos); base != "" {
		return filepath.Join(base, "companion")
	}
	return filepath.Join(os.TempDir(), "companion-state")
}
