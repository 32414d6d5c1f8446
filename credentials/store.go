package credentials

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/zalando/go-keyring"
)

// Names of the stored keys.
const (
	GeminiAPIKey = "gemini-api-key"
	OpenAIAPIKey = "openai-api-key"
)

// service is the keychain service the keys are filed under.
const service = "companion"

// FileName is the fallback file, in the user's companion config folder.
const FileName = "credentials.json"

// Store reads and writes the stored keys.
type Store struct {
	file     string
	keychain bool
}

// New returns the store for the config folder dir. The keychain is used
// unless COMPANION_KEYCHAIN is "off", and on Linux only inside a desktop
// session (DBUS_SESSION_BUS_ADDRESS set), where a Secret Service can
// answer; elsewhere the file is.
func New(dir string, getenv func(string) string) *Store {
	use := getenv("COMPANION_KEYCHAIN") != "off"
	if runtime.GOOS == "linux" && getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		use = false
	}
	return &Store{file: filepath.Join(dir, FileName), keychain: use}
}

// Get returns the stored key name, "" when none is stored.
func (s *Store) Get(name string) (string, error) {
	if s.keychain {
		if v, err := keyring.Get(service, name); err == nil {
			return v, nil
		}
	}
	m, err := s.read()
	return m[name], err
}

// Set stores the key and says where: the keychain when it took it, else
// the file.
func (s *Store) Set(name, value string) (string, error) {
	if s.keychain {
		if err := keyring.Set(service, name, value); err == nil {
			_ = s.deleteFromFile(name) // one place only
			return "the system keychain", nil
		}
	}
	m, err := s.read()
	if err != nil {
		return "", err
	}
	m[name] = value
	return s.file, s.write(m)
}

// Delete removes the key from the keychain and the file; a key stored in
// neither is no error.
func (s *Store) Delete(name string) error {
	if s.keychain {
		if err := keyring.Delete(service, name); err != nil && !errors.Is(err, keyring.ErrNotFound) {
			return fmt.Errorf("removing %s from the keychain: %w", name, err)
		}
	}
	return s.deleteFromFile(name)
}

func (s *Store) deleteFromFile(name string) error {
	m, err := s.read()
	if err != nil {
		return err
	}
	if _, ok := m[name]; !ok {
		return nil
	}
	delete(m, name)
	return s.write(m)
}

// read loads the file; a missing one is empty.
func (s *Store) read() (map[string]string, error) {
	m := map[string]string{}
	data, err := os.ReadFile(s.file)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", s.file, err)
	}
	return m, nil
}

// write replaces the file with m, readable by the user only, through a
// temporary file so a crash never leaves half of it.
func (s *Store) write(m map[string]string) error {
	if err := os.MkdirAll(filepath.Dir(s.file), 0o700); err != nil {
		return err
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.file), ".credentials-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), s.file)
}
