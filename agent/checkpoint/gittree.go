package checkpoint

import (
	"context"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// treeFile records the tree the shadow index was last written as, with the
// index's trailing checksum at that moment (see indexTree).
const treeFile = "companion-tree"

// indexTree returns the tree of the shadow index. When the index file is
// byte for byte the one last written as a tree (its trailing checksum,
// which covers every byte, is the same), that tree is returned without
// running git: a snapshot of an unchanged work tree then costs its status
// and commit only. Otherwise write-tree runs and the pair is recorded.
func (b *gitBackend) indexTree(ctx context.Context) (string, error) {
	index := filepath.Join(b.r.gitDir, "index")
	sum := indexChecksum(index)
	record := filepath.Join(b.r.gitDir, treeFile)
	if data, err := os.ReadFile(record); err == nil && sum != "" {
		if tree, at, ok := strings.Cut(strings.TrimSpace(string(data)), " "); ok && at == sum && tree != "" {
			return tree, nil
		}
	}
	tree, err := b.writeTree(ctx, "")
	if err != nil {
		return "", err
	}
	// write-tree rewrites the index when it completes its cached trees.
	if sum = indexChecksum(index); sum != "" {
		if err := writeFileAtomic(record, []byte(tree+" "+sum+"\n")); err != nil {
			b.log.Debug("checkpoint: cannot record the index's tree", "err", err)
		}
	}
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
