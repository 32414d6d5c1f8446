package secrets

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"sync"
)

// Redacted replaces every secret value.
const Redacted = "[redacted]"

// minSecret is the shortest value treated as a secret: shorter ones (a
// placeholder such as "demo") would redact ordinary text.
const minSecret = 8

// Redactor replaces known secret values (API keys, whatever the names
// they came under) with Redacted. The zero value and nil redact nothing.
// It is safe for concurrent use; Add makes later calls redact more.
type Redactor struct {
	// mu guards forms.
	mu sync.RWMutex
	// forms are the secrets as they may appear: as given and escaped as a
	// JSON string body, longest first. Add replaces the slice, never
	// changes it, so a snapshot stays valid.
	forms []string
}

// NewRedactor returns a Redactor for values; empty and short values are
// ignored.
func NewRedactor(values ...string) *Redactor {
	r := &Redactor{}
	r.Add(values...)
	return r
}

// Add makes r redact values too (after the settings were read again).
func (r *Redactor) Add(values ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	forms := slices.Clone(r.forms) // readers may hold the old slice
	for _, v := range values {
		if len(v) < minSecret {
			continue
		}
		b, _ := json.Marshal(v)
		for _, f := range []string{v, string(b[1 : len(b)-1])} {
			if !slices.Contains(forms, f) {
				forms = append(forms, f)
			}
		}
	}
	slices.SortFunc(forms, func(a, b string) int { return len(b) - len(a) })
	r.forms = forms
}

// snapshot returns the forms to look for.
func (r *Redactor) snapshot() []string {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.forms
}

// String returns s with every secret replaced.
func (r *Redactor) String(s string) string {
	for _, f := range r.snapshot() {
		s = strings.ReplaceAll(s, f, Redacted)
	}
	return s
}

// Bytes returns b with every secret replaced; b itself is returned when
// it holds none.
func (r *Redactor) Bytes(b []byte) []byte {
	for _, f := range r.snapshot() {
		if bytes.Contains(b, []byte(f)) {
			b = bytes.ReplaceAll(b, []byte(f), []byte(Redacted))
		}
	}
	return b
}

// Writer returns a writer that redacts each Write before passing it to w.
// Loggers (log/slog handlers, the standard log package) write one record
// per call, so a secret is never split across calls.
func (r *Redactor) Writer(w io.Writer) io.Writer { return &writer{r: r, w: w} }

// writer is what Redactor.Writer returns.
type writer struct {
	r *Redactor
	w io.Writer
}

// Write implements io.Writer; it reports len(p) written when the redacted
// bytes were all written.
func (w *writer) Write(p []byte) (int, error) {
	out := w.r.Bytes(p)
	n, err := w.w.Write(out)
	if err == nil && n < len(out) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return min(n, len(p)), err
	}
	return len(p), nil
}
