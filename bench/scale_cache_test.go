package bench

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// scaleTreeVersion names the synthetic tree's shape; change it with
// scaleShape or makeScaleTree so a cached tree of the old shape is rebuilt.
const scaleTreeVersion = "scale-v1"

// scaleTreeDir returns the synthetic tree, committed, writing it once into
// a cache folder and reusing it on later runs: COMPANION_BENCH_SCALE_DIR,
// else the user's cache folder. The tree is built beside its final place
// and renamed into it, and a stamp file (the folder's name plus ".ready",
// outside the tree) holds its version, so a run stopped halfway or a tree
// of another shape is never used.
func scaleTreeDir(b *testing.B) string {
	dir := os.Getenv("COMPANION_BENCH_SCALE_DIR")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			b.Fatal(err)
		}
		dir = filepath.Join(cache, "companion-bench", scaleTreeVersion)
	}
	stamp := dir + ".ready"
	if got, err := os.ReadFile(stamp); err == nil && string(got) == scaleTreeVersion {
		return dir
	}
	start := time.Now()
	tmp := fmt.Sprintf("%s.tmp%d", dir, os.Getpid())
	if err := os.RemoveAll(tmp); err != nil {
		b.Fatal(err)
	}
	makeScaleTree(b, tmp)
	gitCommit(b, tmp)
	if err := os.RemoveAll(dir); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, dir); err != nil && !errors.Is(err, os.ErrExist) {
		b.Fatal(err)
	}
	if err := os.WriteFile(stamp, []byte(scaleTreeVersion), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Logf("synthetic tree written and committed into %s in %v (reused by later runs)", dir, time.Since(start).Round(time.Millisecond))
	return dir
}
