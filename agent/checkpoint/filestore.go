package checkpoint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Entry kinds of a manifest.
const (
	kindFile    = "file"
	kindSymlink = "symlink"
	kindDir     = "dir"
	kindAbsent  = "absent"
)

// manifest is one checkpoint of the file backend, stored as
// manifests/<seq>-<id>.json.
type manifest struct {
	V       int       `json:"v"`
	Seq     int64     `json:"seq"`
	Label   string    `json:"label"`
	Time    time.Time `json:"time"`
	Entries []entry   `json:"entries,omitempty"`
	Skipped []string  `json:"skipped,omitempty"`
}

// entry is the state of one named path: a file (content hash and
// permission), a symlink (target), a directory (existence only) or absent.
type entry struct {
	Path   string      `json:"path"`
	Kind   string      `json:"kind"`
	Perm   fs.FileMode `json:"perm,omitempty"`
	Hash   string      `json:"hash,omitempty"`
	Target string      `json:"target,omitempty"`
}

// fileBackend keeps checkpoints of the named paths only: file contents in
// objects/<2 hex>/<62 hex> named by their SHA-256, and one JSON manifest per
// checkpoint. Objects are shared between checkpoints, so an unchanged file
// costs nothing the second time.
type fileBackend struct {
	dir  string // <state>/files
	root string // the project root
}

// save records the named paths as a new manifest. Objects are written
// first and the manifest last, each by rename: a crash leaves at worst
// unreferenced objects, never a damaged checkpoint.
func (b *fileBackend) save(ctx context.Context, label string, named []string) (Checkpoint, error) {
	for _, sub := range []string{"objects", "manifests"} {
		if err := os.MkdirAll(filepath.Join(b.dir, sub), 0o700); err != nil {
			return Checkpoint{}, fmt.Errorf("create checkpoint store: %w", err)
		}
	}
	root, err := os.OpenRoot(b.root)
	if err != nil {
		return Checkpoint{}, fmt.Errorf("open project root: %w", err)
	}
	defer root.Close()
	m := manifest{V: 1, Label: label, Time: time.Now().UTC()}
	buf := make([]byte, 32<<10)
	for _, p := range named {
		if err := ctx.Err(); err != nil {
			return Checkpoint{}, err
		}
		e, ok, err := b.capture(root, p, buf)
		if err != nil {
			return Checkpoint{}, err
		}
		if ok {
			m.Entries = append(m.Entries, e)
		} else {
			m.Skipped = append(m.Skipped, p)
		}
	}
	if m.Seq, err = b.nextSeq(); err != nil {
		return Checkpoint{}, err
	}
	return b.writeManifest(m)
}

// capture records the current state of rel; false when it cannot be kept
// (not a file, symlink or directory). buf is copy space.
func (b *fileBackend) capture(root *os.Root, rel string, buf []byte) (entry, bool, error) {
	e := entry{Path: rel}
	fi, err := root.Lstat(rel)
	switch {
	case isAbsent(err):
		e.Kind = kindAbsent
		return e, true, nil
	case err != nil:
		return e, false, fmt.Errorf("snapshot %s: %w", rel, err)
	case fi.IsDir():
		e.Kind, e.Perm = kindDir, fi.Mode().Perm()
		return e, true, nil
	case fi.Mode()&fs.ModeSymlink != 0:
		e.Kind = kindSymlink
		e.Target, err = root.Readlink(rel)
		return e, err == nil, err
	case !fi.Mode().IsRegular():
		return e, false, nil
	}
	e.Kind, e.Perm = kindFile, fi.Mode().Perm()
	e.Hash, err = b.storeObject(root, rel, buf)
	return e, err == nil, err
}

// storeObject copies rel's content into the object store, returning its
// hash. The copy is synced before it is renamed into place.
func (b *fileBackend) storeObject(root *os.Root, rel string, buf []byte) (sum string, err error) {
	src, err := root.Open(rel)
	if err != nil {
		return "", fmt.Errorf("snapshot %s: %w", rel, err)
	}
	defer src.Close()
	tmp, err := os.CreateTemp(filepath.Join(b.dir, "objects"), ".tmp-*")
	if err != nil {
		return "", err
	}
	defer func() {
		tmp.Close()
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	h := sha256.New()
	if _, err := io.CopyBuffer(io.MultiWriter(tmp, h), src, buf); err != nil {
		return "", fmt.Errorf("snapshot %s: %w", rel, err)
	}
	if err = tmp.Sync(); err != nil {
		return "", err
	}
	sum = hex.EncodeToString(h.Sum(nil))
	final := b.objectPath(sum)
	if _, err := os.Stat(final); err == nil {
		os.Remove(tmp.Name())
		return sum, nil
	}
	if err = os.MkdirAll(filepath.Dir(final), 0o700); err != nil {
		return "", err
	}
	return sum, os.Rename(tmp.Name(), final)
}

// objectPath is where the content with hash sum is stored.
func (b *fileBackend) objectPath(sum string) string {
	return filepath.Join(b.dir, "objects", sum[:2], sum[2:])
}

// writeManifest stores m under a name made of its sequence number and the
// hash of its content, which is also the checkpoint id.
func (b *fileBackend) writeManifest(m manifest) (Checkpoint, error) {
	data, err := json.Marshal(m)
	if err != nil {
		return Checkpoint{}, err
	}
	id := shortID(hexSum(sha256.New(), data))
	name := fmt.Sprintf("%012d-%s.json", m.Seq, id)
	if err := writeFileAtomic(filepath.Join(b.dir, "manifests", name), data); err != nil {
		return Checkpoint{}, fmt.Errorf("write checkpoint: %w", err)
	}
	return m.checkpoint(id, name), nil
}

// checkpoint describes m.
func (m manifest) checkpoint(id, name string) Checkpoint {
	cp := Checkpoint{ID: id, Label: m.Label, Time: m.Time, Skipped: m.Skipped, PathsOnly: true, Backend: BackendFiles, rev: name}
	for _, e := range m.Entries {
		cp.Paths = append(cp.Paths, e.Path)
	}
	return cp
}

// manifestNames lists the manifest files, oldest first.
func (b *fileBackend) manifestNames() ([]string, error) {
	des, err := os.ReadDir(filepath.Join(b.dir, "manifests"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list checkpoints: %w", err)
	}
	var names []string
	for _, de := range des {
		if n := de.Name(); !strings.HasPrefix(n, ".") && strings.HasSuffix(n, ".json") {
			names = append(names, n)
		}
	}
	slices.Sort(names) // zero-padded sequence numbers sort by age
	return names, nil
}

// nextSeq is one more than the newest manifest's sequence number.
func (b *fileBackend) nextSeq() (int64, error) {
	names, err := b.manifestNames()
	if err != nil || len(names) == 0 {
		return 1, err
	}
	seq, _, _ := strings.Cut(names[len(names)-1], "-")
	n, err := strconv.ParseInt(seq, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: manifest %s", ErrCorrupt, names[len(names)-1])
	}
	return n + 1, nil
}

// readManifest loads one manifest file.
func (b *fileBackend) readManifest(name string) (manifest, error) {
	var m manifest
	data, err := os.ReadFile(filepath.Join(b.dir, "manifests", name))
	if err != nil {
		return m, fmt.Errorf("read checkpoint: %w", err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("%w: manifest %s: %w", ErrCorrupt, name, err)
	}
	return m, nil
}

// list returns the checkpoints, newest first; unreadable manifests are
// skipped.
func (b *fileBackend) list() ([]Checkpoint, error) {
	names, err := b.manifestNames()
	if err != nil {
		return nil, err
	}
	cps := make([]Checkpoint, 0, len(names))
	for i := len(names) - 1; i >= 0; i-- {
		m, err := b.readManifest(names[i])
		_, rest, _ := strings.Cut(names[i], "-")
		if err != nil || len(rest) < len(".json")+1 {
			continue
		}
		cps = append(cps, m.checkpoint(strings.TrimSuffix(rest, ".json"), names[i]))
	}
	return cps, nil
}

// hexSum hashes data with h, in hex.
func hexSum(h hash.Hash, data []byte) string {
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}
