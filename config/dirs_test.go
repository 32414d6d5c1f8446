package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestUserDirs: the settings file and the state folder for each shape of
// environment, on Linux, macOS and Windows, with and without HOME. The
// account home (/home/acct) stands for the passwd entry.
func TestUserDirs(t *testing.T) {
	j := filepath.Join
	tests := []struct {
		name     string
		goos     string
		env      map[string]string
		settings string
		state    string
	}{
		{"linux home", "linux", map[string]string{"HOME": "/h"},
			j("/h", ".config", "companion", "settings.json"), j("/h", ".local", "state", "companion")},
		{"linux xdg", "linux", map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s"},
			j("/c", "companion", "settings.json"), j("/s", "companion")},
		{"linux explicit", "linux", map[string]string{"HOME": "/h", "COMPANION_SETTINGS": "/x/s.json"},
			"/x/s.json", j("/h", ".local", "state", "companion")},
		{"linux no HOME: the account's", "linux", map[string]string{},
			j("/home/acct", ".config", "companion", "settings.json"), j("/home/acct", ".local", "state", "companion")},
		{"linux no HOME, xdg", "linux", map[string]string{"XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s"},
			j("/c", "companion", "settings.json"), j("/s", "companion")},
		{"darwin home", "darwin", map[string]string{"HOME": "/Users/u"},
			j("/Users/u", ".config", "companion", "settings.json"), j("/Users/u", ".local", "state", "companion")},
		{"darwin no HOME", "darwin", map[string]string{},
			j("/home/acct", ".config", "companion", "settings.json"), j("/home/acct", ".local", "state", "companion")},
		{"windows appdata", "windows", map[string]string{"APPDATA": "/r", "LOCALAPPDATA": "/l", "USERPROFILE": "/p"},
			j("/r", "companion", "settings.json"), j("/l", "companion")},
		{"windows appdata over a git-bash HOME", "windows", map[string]string{"HOME": "/h", "APPDATA": "/r", "LOCALAPPDATA": "/l"},
			j("/r", "companion", "settings.json"), j("/l", "companion")},
		{"windows profile only", "windows", map[string]string{"USERPROFILE": "/p"},
			j("/p", ".config", "companion", "settings.json"), j("/p", ".local", "state", "companion")},
		{"windows xdg wins", "windows", map[string]string{"APPDATA": "/r", "XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s"},
			j("/c", "companion", "settings.json"), j("/s", "companion")},
	}
	account := func() (string, error) { return "/home/acct", nil }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := userEnv(mapEnv(tt.env), tt.goos, account)
			if got := settingsPathFor(getenv, tt.goos); got != tt.settings {
				t.Errorf("settings = %q, want %q", got, tt.settings)
			}
			if got := stateDirFor(getenv, tt.goos); got != tt.state {
				t.Errorf("state = %q, want %q", got, tt.state)
			}
		})
	}
}

// TestUserDirsNothingKnown: with no HOME and no account home, there is no
// settings file and state goes to the temp folder (as before).
func TestUserDirsNothingKnown(t *testing.T) {
	for _, account := range []func() (string, error){
		nil,
		func() (string, error) { return "", errors.New("no passwd entry") },
		func() (string, error) { return "relative", nil },
	} {
		getenv := userEnv(mapEnv(nil), "linux", account)
		if got := getenv("HOME"); got != "" {
			t.Errorf("HOME = %q", got)
		}
		if got := settingsPathFor(getenv, "linux"); got != "" {
			t.Errorf("settings = %q", got)
		}
		if got := stateDirFor(getenv, "linux"); got != filepath.Join(os.TempDir(), "companion-state") {
			t.Errorf("state = %q", got)
		}
	}
}

// TestUserEnvLoad: Load through UserEnv with no HOME reads the settings
// file in the account's home and puts state there.
func TestUserEnvLoad(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".config", "companion")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(`{"model": "from-account-home"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	asked := 0
	getenv := UserEnv(mapEnv(nil), func() (string, error) { asked++; return home, nil })
	c, err := Load(getenv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Model != "from-account-home" {
		t.Errorf("model = %q: the settings file in the account home was not read", c.Model)
	}
	if want := filepath.Join(home, ".local", "state", "companion"); c.StateDir != want {
		t.Errorf("state = %q, want %q", c.StateDir, want)
	}
	if asked != 1 {
		t.Errorf("account home asked %d times, want once", asked)
	}
}

// mapEnv is a getenv over a map.
func mapEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}
