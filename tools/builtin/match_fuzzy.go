package builtin

import (
	"context"
	"math/bits"
	"slices"
)

// Bounds of the fuzzy search. Its work is about fuzzySeeds passes over the
// file's lines with a constant-time comparison each, then a few candidate
// windows scored line by line, so a 100,000-line file stays fast.
const (
	// fuzzySeeds is how many of old_string's most distinctive (longest)
	// lines are looked for in the file to find candidate places.
	fuzzySeeds = 6
	// fuzzyPerSeed is how many most similar file lines each seed keeps.
	fuzzyPerSeed = 16
	// fuzzyRefine is how many candidates are scored by edit distance.
	fuzzyRefine = 6
	// fuzzyMargin is how much better than the runner-up the best candidate
	// must be; closer than that the match is ambiguous and refused.
	fuzzyMargin = 0.03
	// fuzzyMinLines is the fewest non-blank lines old_string needs for a
	// fuzzy match: one short line differing by a character is as likely
	// another statement as a typo.
	fuzzyMinLines = 2
	// fuzzyMinLine is the least similarity every line of a fuzzy match needs,
	// so one line the model got entirely wrong is not silently replaced.
	fuzzyMinLine = 0.5
	// levBudget caps the edit-distance cells computed per search; pairs of
	// lines beyond it are compared by fingerprint.
	levBudget = 4 << 20
)

// candidate is a place where old_string's lines might be: a window of
// lines starting at start (0-based), scored by mean line similarity.
type candidate struct {
	start   int
	score   float64
	minLine float64
}

// fuzzyCandidates returns the windows of len(old) lines of file most similar
// to old (both trimmed), best first. The first ones are scored by edit
// distance, the rest only roughly. It returns nil when old has more lines
// than file or nothing resembles it.
func fuzzyCandidates(ctx context.Context, file, old []string) ([]candidate, error) {
	n, m := len(file), len(old)
	if m == 0 || m > n {
		return nil, nil
	}
	fps := make([]fingerprint, n)
	for i, l := range file {
		if i%8192 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		fps[i] = fingerprintOf(l)
	}
	oldFps := make([]fingerprint, m)
	for k, l := range old {
		oldFps[k] = fingerprintOf(l)
	}
	starts := map[int]bool{}
	for _, k := range seedLines(old) {
		for _, j := range mostSimilar(file, fps, old[k], oldFps[k], k, n-m+k) {
			starts[j-k] = true
		}
	}
	cands := make([]candidate, 0, len(starts))
	for s := range starts {
		sum := 0.0
		for k := range m {
			sum += fps[s+k].sim(oldFps[k])
		}
		cands = append(cands, candidate{start: s, score: sum / float64(m)})
	}
	byScore(cands)
	budget := levBudget
	for i := range min(len(cands), fuzzyRefine) {
		c := &cands[i]
		c.score, c.minLine = windowSimilarity(file[c.start:c.start+m], old, fps[c.start:c.start+m], oldFps, &budget)
	}
	byScore(cands[:min(len(cands), fuzzyRefine)])
	return cands, ctx.Err()
}

// byScore sorts candidates best first, earlier lines first on a tie.
func byScore(cs []candidate) {
	slices.SortFunc(cs, func(a, b candidate) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return a.start - b.start
	})
}

// seedLines picks the indexes of up to fuzzySeeds distinct, non-empty lines
// of old, longest first.
func seedLines(old []string) []int {
	idx := make([]int, 0, len(old))
	for k, l := range old {
		if l != "" {
			idx = append(idx, k)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return len(old[b]) - len(old[a]) })
	var seeds []int
	seen := map[string]bool{}
	for _, k := range idx {
		if len(seeds) == fuzzySeeds {
			break
		}
		if !seen[old[k]] {
			seen[old[k]] = true
			seeds = append(seeds, k)
		}
	}
	return seeds
}

// mostSimilar returns up to fuzzyPerSeed indexes in [lo, hi] of the lines
// most similar to want by fingerprint. Lines whose length differs from
// want's by more than half cannot reach fuzzyMinLine and are skipped.
func mostSimilar(file []string, fps []fingerprint, want string, wantFp fingerprint, lo, hi int) []int {
	type hit struct {
		j   int
		sim float64
	}
	best := make([]hit, 0, fuzzyPerSeed+1)
	for j := lo; j <= hi; j++ {
		if l := len(file[j]); 2*l < len(want) || l > 2*len(want) {
			continue
		}
		s := fps[j].sim(wantFp)
		if s == 0 || (len(best) == fuzzyPerSeed && s <= best[len(best)-1].sim) {
			continue
		}
		i := len(best)
		for i > 0 && best[i-1].sim < s {
			i--
		}
		best = slices.Insert(best, i, hit{j, s})
		if len(best) > fuzzyPerSeed {
			best = best[:fuzzyPerSeed]
		}
	}
	out := make([]int, len(best))
	for i, h := range best {
		out[i] = h.j
	}
	return out
}

// windowSimilarity scores file lines against old lines pair by pair: the
// mean and the least line similarity.
func windowSimilarity(file, old []string, fps, oldFps []fingerprint, budget *int) (mean, least float64) {
	least = 1
	sum := 0.0
	for k := range old {
		s := lineSimilarity(file[k], old[k], fps[k], oldFps[k], budget)
		sum += s
		least = min(least, s)
	}
	return sum / float64(len(old)), least
}

// lineSimilarity is 1 minus the edit distance of a and b over the longer
// length; past the budget it falls back to the fingerprints.
func lineSimilarity(a, b string, fa, fb fingerprint, budget *int) float64 {
	switch {
	case a == b:
		return 1
	case a == "" || b == "":
		return 0
	}
	cells := len(a) * len(b)
	if cells > *budget {
		return fa.sim(fb)
	}
	*budget -= cells
	return 1 - float64(levenshtein(a, b))/float64(max(len(a), len(b)))
}

// levenshtein is the byte-wise edit distance of a and b.
func levenshtein(a, b string) int {
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cur := row[j]
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			row[j] = min(row[j]+1, row[j-1]+1, prev+cost)
			prev = cur
		}
	}
	return row[len(b)]
}

// fingerprint is a 256-bit set of a line's hashed byte pairs: comparing two
// costs a few instructions, a rough stand-in for edit distance.
type fingerprint [4]uint64

func fingerprintOf(s string) fingerprint {
	var f fingerprint
	set := func(h uint32) { f[h>>6&3] |= 1 << (h & 63) }
	if len(s) == 1 {
		set(uint32(s[0]) * 0x9e3779b1 >> 24)
	}
	for i := 0; i+1 < len(s); i++ {
		set((uint32(s[i])*0x9e3779b1 ^ uint32(s[i+1])*0x85ebca77) >> 24)
	}
	return f
}

// sim is the Jaccard similarity of two fingerprints; two empty lines are
// alike.
func (f fingerprint) sim(g fingerprint) float64 {
	var both, either int
	for i := range f {
		both += bits.OnesCount64(f[i] & g[i])
		either += bits.OnesCount64(f[i] | g[i])
	}
	if either == 0 {
		return 1
	}
	return float64(both) / float64(either)
}
