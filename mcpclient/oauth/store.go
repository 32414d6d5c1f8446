package oauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// StoreFile is the name of the grants file in companion's state directory.
const StoreFile = "mcp-oauth.json"

// StorePath is the grants file in stateDir.
func StorePath(stateDir string) string { return filepath.Join(stateDir, StoreFile) }

// Grant is what authorizing companion with one server produced: the client
// it used, where to refresh, and the tokens.
type Grant struct {
	// ServerURL is the MCP server the grant is for; a grant is never sent
	// to another URL.
	ServerURL string `json:"serverUrl"`
	// Resource is the resource indicator (RFC 8707) the tokens are for.
	Resource     string   `json:"resource,omitempty"`
	ClientID     string   `json:"clientId"`
	ClientSecret string   `json:"clientSecret,omitempty"`
	TokenURL     string   `json:"tokenUrl"`
	Scopes       []string `json:"scopes,omitempty"`
	AccessToken  string   `json:"accessToken"`
	RefreshToken string   `json:"refreshToken,omitempty"`
	TokenType    string   `json:"tokenType,omitempty"`
	// Expiry is when the access token expires; zero: unknown.
	Expiry time.Time `json:"expiry,omitzero"`
}

// expiresWithin reports whether the access token expires within d.
func (g *Grant) expiresWithin(d time.Duration, now time.Time) bool {
	return !g.Expiry.IsZero() && now.Add(d).After(g.Expiry)
}

// State is a server's authorization state, as /mcp and `companion mcp
// list` show it.
type State string

// Authorization states.
const (
	// StateNone: no grant, and the server never asked for one.
	StateNone State = "none"
	// StateAuthorized: a grant whose token is valid or can be refreshed.
	StateAuthorized State = "authorised"
	// StateNeedsAuth: the server asked for authorization and companion has
	// no usable grant.
	StateNeedsAuth State = "needs auth"
	// StateExpired: the access token expired and cannot be refreshed.
	StateExpired State = "expired"
)

// GrantState is the state a stored grant (nil: none) implies.
func GrantState(g *Grant, now time.Time) State {
	switch {
	case g == nil:
		return StateNone
	case g.expiresWithin(0, now) && g.RefreshToken == "":
		return StateExpired
	default:
		return StateAuthorized
	}
}

// Store keeps grants per server name in a JSON file only the user can
// read and write (0600, in a 0700 directory if it makes one). It is safe
// for concurrent use; writes replace the file atomically, so another
// companion process reads either the old or the new grants.
type Store struct {
	path string
	mu   sync.Mutex
}

// NewStore returns the store in the file at path (created on first Save).
func NewStore(path string) *Store { return &Store{path: path} }

// Path is the store's file.
func (s *Store) Path() string { return s.path }

// storeFile is the file's content.
type storeFile struct {
	Servers map[string]*Grant `json:"servers"`
}

// Load returns the grant of server name for serverURL, nil when there is
// none or it was made for another URL.
func (s *Store) Load(name, serverURL string) (*Grant, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.read()
	if err != nil {
		return nil, err
	}
	g := f.Servers[name]
	if g == nil || g.ServerURL != serverURL {
		return nil, nil
	}
	return g, nil
}

// Save records g as server name's grant.
func (s *Store) Save(name string, g *Grant) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.read()
	if err != nil {
		return err
	}
	f.Servers[name] = g
	return s.write(f)
}

// Delete removes server name's grant and reports whether there was one.
func (s *Store) Delete(name string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.read()
	if err != nil {
		return false, err
	}
	if _, ok := f.Servers[name]; !ok {
		return false, nil
	}
	delete(f.Servers, name)
	return true, s.write(f)
}

// read loads the file; a missing file is an empty store.
func (s *Store) read() (storeFile, error) {
	f := storeFile{Servers: map[string]*Grant{}}
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("OAuth grants: %w", err)
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return f, fmt.Errorf("OAuth grants %s: %w", s.path, err)
	}
	if f.Servers == nil {
		f.Servers = map[string]*Grant{}
	}
	return f, nil
}

// write replaces the file with f through a 0600 temporary file.
func (s *Store) write(f storeFile) error {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("OAuth grants: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".mcp-oauth-*.json")
	if err != nil {
		return fmt.Errorf("OAuth grants: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("OAuth grants: %w", err)
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("OAuth grants: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("OAuth grants: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		return fmt.Errorf("OAuth grants: %w", err)
	}
	return nil
}
