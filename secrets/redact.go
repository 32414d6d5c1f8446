package secrets

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"sync"
)

// Redacted replaces every secret value.
const Redacted = "[redacted]"

// minSecret is the shortest value treated as a secret: shorter ones (a
// stand-in key such as "demo") would redact ordinary text.
const minSecret = 8

// Redactor replaces known secret values (API keys, whatever the names
// they came under) with Redacted. The zero value and nil redact nothing.
// It is safe for concurrent use; Add makes later calls redact more.
type Redactor struct {
	// mu guards forms.
	mu sync.RWMutex
	// forms are the secrets as they may appear: as given and escaped as a
	// JSON string body, longest first, as bytes (every outgoing message
	// is searched for them). Add replaces the slice, never changes it, so
	// a snapshot stays valid.
	forms [][]byte
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
		for _, f := range [][]byte{[]byte(v), b[1 : len(b)-1]} {
			if !slices.ContainsFunc(forms, func(g []byte) bool { return bytes.Equal(f, g) }) {
				forms = append(forms, f)
			}
		}
	}
	slices.SortFunc(forms, func(a, b []byte) int { return len(b) - len(a) })
	r.forms = forms
}

// snapshot returns the forms to look for.
func (r *Redactor) snapshot() [][]byte {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.forms
}

// String returns s with every secret replaced.
func (r *Redactor) String(s string) string {
	return string(r.Bytes([]byte(s)))
}

// Bytes returns b with every secret replaced; b itself is returned when
// it holds none.
func (r *Redactor) Bytes(b []byte) []byte {
	for _, f := range r.snapshot() {
		if bytes.Contains(b, f) {
			b = bytes.ReplaceAll(b, f, []byte(Redacted))
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
