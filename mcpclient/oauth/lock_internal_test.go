//go:build unix || windows

package oauth

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"companion/internal/filelock"
)

func TestUpdateReleasesTheLockOnEveryPath(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name  string
		write bool
		err   error
	}{
		{"write", true, nil},
		{"no write", false, nil},
		{"error", false, boom},
		{"error and write", true, boom},
	}
	s := NewStore(filepath.Join(t.TempDir(), StoreFile))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.update(t.Context(), func(f *storeFile) (bool, error) {
				f.Servers[tt.name] = &Grant{ServerURL: "u"}
				return tt.write, tt.err
			})
			if !errors.Is(err, tt.err) {
				t.Fatalf("update = %v, want %v", err, tt.err)
			}
			// taken by another open file: free only if update released it
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			l, err := filelock.Acquire(ctx, lockPath(s.Path()))
			if err != nil {
				// a cancelled context still gets a free lock on the first try
				t.Fatalf("lock still held after update: %v", err)
			}
			l.Release()
			g, _ := s.Load(tt.name, "u")
			if (g != nil) != tt.write {
				t.Errorf("grant saved = %v, want %v", g != nil, tt.write)
			}
		})
	}
}
