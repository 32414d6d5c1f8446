package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"companion/internal/filelock"
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
	Resource     string `json:"resource,omitempty"`
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret,omitempty"`
	// AuthURL and TokenURL are the configured endpoints the grant was made
	// with, and is refreshed at; empty: discovered again when refreshing.
	// (Grants written before mcp-go did the protocol have a TokenURL only:
	// they are refreshed through discovery.)
	AuthURL      string   `json:"authUrl,omitempty"`
	TokenURL     string   `json:"tokenUrl,omitempty"`
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

// Store keeps grants per server name, and the clients companion
// registered (Registration), in a JSON file only the user can read and
// write (0600, in a 0700 directory if it makes one). It is safe for
// concurrent use, by goroutines and by processes: every read-modify-write
// holds an exclusive lock on the sibling file path+".lock", and writes
// replace the file atomically, so a reader without the lock sees either
// the old or the new content.
type Store struct {
	path string
	// sem serialises this Store's writers before they take the file lock
	// (a channel, so that waiting respects a context).
	sem chan struct{}
}

// NewStore returns the store in the file at path (created on first Save).
func NewStore(path string) *Store { return &Store{path: path, sem: make(chan struct{}, 1)} }

// Path is the store's file.
func (s *Store) Path() string { return s.path }

// storeFile is the file's content.
type storeFile struct {
	Servers map[string]*Grant `json:"servers"`
	// Clients are the dynamically registered clients, reused by later
	// authorizations.
	Clients []*Registration `json:"clients,omitempty"`
}

// grant is server name's grant for serverURL, nil when there is none.
func (f *storeFile) grant(name, serverURL string) *Grant {
	g := f.Servers[name]
	if g == nil || g.ServerURL != serverURL {
		return nil
	}
	return g
}

// Load returns the grant of server name for serverURL, nil when there is
// none or it was made for another URL. It reads without the lock: writes
// are atomic.
func (s *Store) Load(name, serverURL string) (*Grant, error) {
	f, err := s.read()
	if err != nil {
		return nil, err
	}
	return f.grant(name, serverURL), nil
}

// Save records g as server name's grant. It waits for the lock at most
// lockWait.
func (s *Store) Save(name string, g *Grant) error {
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	return s.update(ctx, func(f *storeFile) (bool, error) {
		f.Servers[name] = g
		return true, nil
	})
}

// Delete removes server name's grant and reports whether there was one.
// It waits for the lock at most lockWait.
func (s *Store) Delete(name string) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	found := false
	err := s.update(ctx, func(f *storeFile) (bool, error) {
		_, found = f.Servers[name]
		delete(f.Servers, name)
		return found, nil
	})
	return found, err
}

// update runs fn on the file's content with the store locked (this
// Store's semaphore, then the file lock), and writes the content back
// when fn says so, even when fn also returns an error (fn's error is
// returned). The lock is released on every path; waiting for it ends with
// ctx.
func (s *Store) update(ctx context.Context, fn func(f *storeFile) (write bool, err error)) error {
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("OAuth grants: %w", ctx.Err())
	}
	defer func() { <-s.sem }()
	l, err := filelock.Acquire(ctx, lockPath(s.path))
	if err != nil {
		return fmt.Errorf("OAuth grants: %w", err)
	}
	defer l.Release()
	f, err := s.read()
	if err != nil {
		return err
	}
	write, ferr := fn(&f)
	if write {
		if err := s.write(f); err != nil {
			return errors.Join(ferr, err)
		}
	}
	return ferr
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
	dir := filepath.Dir(s.path) // made by the lock update holds
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
	if err := tmp.Sync(); err != nil {
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
