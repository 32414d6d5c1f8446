package checkpoint

import (
	"context"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// treeFile records the tree of the shadow index's entries, with the
// index's trailing checksum at the moment it was known to hold: "tree
// checksum". The checksum covers every byte of the index, so any change
// of its entries (by this store, a crash half way, another version of
// companion) makes the record stale. Only a `git status` run by
// worktreeChanges rewrites the index without changing its entries (it
// refreshes stat data and the untracked cache); the record then follows
// it (followStatus).
const treeFile = "companion-tree"

// indexRecord is the content of treeFile.
type indexRecord struct {
	tree, sum string
}

// validRecord returns the recorded tree of the shadow index's entries
// when the index is still the one it was recorded with.
func (b *gitBackend) validRecord() (indexRecord, bool) {
	data, err := os.ReadFile(filepath.Join(b.r.gitDir, treeFile))
	if err != nil {
		return indexRecord{}, false
	}
	tree, sum, ok := strings.Cut(strings.TrimSpace(string(data)), " ")
	if !ok || len(tree) != 40 || sum == "" || sum != indexChecksum(filepath.Join(b.r.gitDir, "index")) {
		return indexRecord{}, false
	}
	return indexRecord{tree: tree, sum: sum}, true
}

// writeRecord records tree as that of the shadow index as it is now.
func (b *gitBackend) writeRecord(tree string) {
	sum := indexChecksum(filepath.Join(b.r.gitDir, "index"))
	if sum == "" {
		return
	}
	if err := writeFileAtomic(filepath.Join(b.r.gitDir, treeFile), []byte(tree+" "+sum+"\n")); err != nil {
		b.log.Debug("checkpoint: cannot record the index's tree", "err", err)
	}
}

// followStatus moves a record that was valid before worktreeChanges'
// status to the index that status left: the entries are the same.
func (b *gitBackend) followStatus(rec indexRecord) {
	if sum := indexChecksum(filepath.Join(b.r.gitDir, "index")); sum != "" && sum != rec.sum {
		b.writeRecord(rec.tree)
	}
}

// indexTree returns the tree of the shadow index. When the record is
// valid that tree is returned without running git: a snapshot of an
// unchanged work tree then costs its status and commit only. Otherwise
// write-tree runs and the tree is recorded.
func (b *gitBackend) indexTree(ctx context.Context) (string, error) {
	if rec, ok := b.validRecord(); ok {
		return rec.tree, nil
	}
	tree, err := b.writeTree(ctx, "")
	if err != nil {
		return "", err
	}
	// write-tree rewrites the index when it completes its cached trees:
	// the record takes the checksum it leaves.
	b.writeRecord(tree)
	return tree, nil
}

// indexChecksum returns the hex checksum that ends the index file name,
// or "" when it cannot be read or is all zeros (index.skipHash).
func indexChecksum(name string) string {
	f, err := os.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	fi, err := f.Stat()
	const size = 20 // SHA-1, the shadow repository's object format
	if err != nil || fi.Size() < 12+size {
		return ""
	}
	sum := make([]byte, size)
	if _, err := f.ReadAt(sum, fi.Size()-size); err != nil && err != io.EOF {
		return ""
	}
	if strings.Trim(hex.EncodeToString(sum), "0") == "" {
		return ""
	}
	return hex.EncodeToString(sum)
}
