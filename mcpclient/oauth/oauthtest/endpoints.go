package oauthtest

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// authorize approves at once and redirects to the client's redirect URI.
// A client ForgetClients dropped is refused as its Refusal says.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect := q.Get("redirect_uri")
	s.mu.Lock()
	uris, known := s.clients[q.Get("client_id")]
	forgottenURIs, forgotten := s.forgotten[q.Get("client_id")]
	refusal := s.refusal
	if forgotten && refusal == RefuseAtToken {
		uris, known = forgottenURIs, true
	}
	s.resource = append(s.resource, q.Get("resource"))
	s.redirects = append(s.redirects, redirect)
	s.mu.Unlock()
	switch {
	case !known && forgotten && refusal == RefuseInRedirect && isLoopback(redirect):
		redirectTo(w, r, redirect, url.Values{"error": {"invalid_client"}, "state": {q.Get("state")}})
		return
	case !known:
		http.Error(w, "unknown client", http.StatusBadRequest)
		return
	case uris != nil && !slices.Contains(uris, redirect), !isLoopback(redirect):
		http.Error(w, "redirect_uri not registered", http.StatusBadRequest)
		return
	case q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "":
		http.Error(w, "PKCE S256 required", http.StatusBadRequest)
		return
	case !s.isResource(q.Get("resource")):
		http.Error(w, "wrong resource", http.StatusBadRequest)
		return
	}
	code := random()
	s.mu.Lock()
	s.codes[code] = codeGrant{clientID: q.Get("client_id"), redirectURI: redirect, challenge: q.Get("code_challenge"),
		resource: q.Get("resource")}
	s.counts.Authorizations++
	s.mu.Unlock()
	redirectTo(w, r, redirect, url.Values{"code": {code}, "state": {q.Get("state")}})
}

// redirectTo redirects to redirect with params added to its query.
func redirectTo(w http.ResponseWriter, r *http.Request, redirect string, params url.Values) {
	u, _ := url.Parse(redirect)
	v := u.Query()
	for k, vs := range params {
		v[k] = vs
	}
	u.RawQuery = v.Encode()
	http.Redirect(w, r, u.String(), http.StatusFound)
}

// token answers the authorization_code and refresh_token grants.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resource = append(s.resource, r.PostForm.Get("resource"))
	if !s.isResource(r.PostForm.Get("resource")) {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_target"})
		return
	}
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		s.exchange(w, r)
	case "refresh_token":
		rt := r.PostForm.Get("refresh_token")
		if !s.refresh[rt] {
			s.counts.RefusedRefreshes++
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
		delete(s.refresh, rt) // rotated: a second use is refused
		s.counts.Refreshes++
		s.issue(w)
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
	}
}

// exchange trades a code for tokens, checking the PKCE verifier; s.mu is
// held.
func (s *Server) exchange(w http.ResponseWriter, r *http.Request) {
	f := r.PostForm
	g, ok := s.codes[f.Get("code")]
	delete(s.codes, f.Get("code"))
	sum := sha256.Sum256([]byte(f.Get("code_verifier")))
	_, known := s.clients[f.Get("client_id")]
	switch {
	case !known:
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
	case !ok || g.redirectURI != f.Get("redirect_uri") || g.clientID != f.Get("client_id"):
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
	case base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "PKCE"})
	default:
		s.counts.CodeExchanges++
		s.issue(w)
	}
}

// issue answers a new token pair; s.mu is held.
func (s *Server) issue(w http.ResponseWriter) {
	at, rt := "at-"+random(), "rt-"+random()
	s.access[at], s.refresh[rt] = true, true
	writeJSON(w, http.StatusOK, map[string]any{"access_token": at, "token_type": "Bearer", "refresh_token": rt,
		"expires_in": int(s.opts.TokenLifetime.Seconds())})
}

// isLoopback reports whether u is an http URL on 127.0.0.1.
func isLoopback(u string) bool {
	p, err := url.Parse(u)
	return err == nil && p.Scheme == "http" && strings.HasPrefix(p.Host, "127.0.0.1:")
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// random is a short random string.
func random() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
