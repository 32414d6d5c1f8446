package oauth

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/client/transport"
)

// Client is an OAuth client: the id the authorization server knows
// companion by, and its secret for a confidential client.
type Client struct {
	ID     string `json:"client_id"`
	Secret string `json:"client_secret,omitempty"`
}

// RegistrationKey is what a dynamically registered client is kept for:
// one authorization server (its registration endpoint) and one server
// configuration (the resource, the client name, the scopes and the
// configured redirect URI). Another key registers another client.
type RegistrationKey struct {
	Endpoint      string   `json:"registrationEndpoint"`
	Resource      string   `json:"resource"`
	ClientName    string   `json:"clientName"`
	Scopes        []string `json:"scopes,omitempty"`
	ConfiguredURI string   `json:"configuredRedirectUri,omitempty"`
}

// equal reports whether k and o are the same key.
func (k RegistrationKey) equal(o RegistrationKey) bool {
	return k.Endpoint == o.Endpoint && k.Resource == o.Resource && k.ClientName == o.ClientName &&
		slices.Equal(k.Scopes, o.Scopes) && k.ConfiguredURI == o.ConfiguredURI
}

// Registration is a client companion registered (RFC 7591), kept in the
// Store so that later authorizations reuse it: the same client id and
// secret, and the same redirect URI, which means listening on the same
// loopback port.
type Registration struct {
	RegistrationKey
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret,omitempty"`
	// RedirectURI is the one redirect URI the client was registered with.
	RedirectURI string `json:"redirectUri"`
}

// client is r's client.
func (r *Registration) client() Client { return Client{ID: r.ClientID, Secret: r.ClientSecret} }

// registration is the client kept for k, nil when there is none.
func (s *Store) registration(k RegistrationKey) (*Registration, error) {
	f, err := s.read()
	if err != nil {
		return nil, err
	}
	for _, r := range f.Clients {
		if r.RegistrationKey.equal(k) {
			return r, nil
		}
	}
	return nil, nil
}

// putRegistration keeps r, replacing the client kept for its key.
func (s *Store) putRegistration(ctx context.Context, r *Registration) error {
	return s.update(ctx, func(f *storeFile) (bool, error) {
		f.Clients = slices.DeleteFunc(f.Clients, func(o *Registration) bool { return o.RegistrationKey.equal(r.RegistrationKey) })
		f.Clients = append(f.Clients, r)
		return true, nil
	})
}

// dropRegistration forgets the client kept for k when it is still
// clientID (another process may have registered a new one meanwhile).
func (s *Store) dropRegistration(ctx context.Context, k RegistrationKey, clientID string) error {
	return s.update(ctx, func(f *storeFile) (bool, error) {
		n := len(f.Clients)
		f.Clients = slices.DeleteFunc(f.Clients, func(o *Registration) bool {
			return o.RegistrationKey.equal(k) && o.ClientID == clientID
		})
		return len(f.Clients) != n, nil
	})
}

// AuthorizeError is an error the authorization endpoint sent back to the
// loopback redirect (RFC 6749 §4.1.2.1).
type AuthorizeError struct {
	Code, Description string
}

func (e *AuthorizeError) Error() string {
	return fmt.Sprintf("authorization refused: %s %s", e.Code, e.Description)
}

// clientRejected reports whether err is the authorization server
// refusing the client itself (invalid_client), at the authorization
// endpoint or the token endpoint: a kept registration it no longer knows.
func clientRejected(err error) bool {
	var re transport.OAuthError
	if errors.As(err, &re) {
		return re.ErrorCode == "invalid_client"
	}
	var ae *AuthorizeError
	return errors.As(err, &ae) && ae.Code == "invalid_client"
}
