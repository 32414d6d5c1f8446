package ide

import "slices"

// normalizeDiagnostics applies the diagnostic rules of Normalize: canonical
// URIs, one entry per file (in order of first appearance), the most severe
// MaxDiagnostics kept, each file's list ordered by position.
func normalizeDiagnostics(in []FileDiagnostics) []FileDiagnostics {
	out := make([]FileDiagnostics, 0, len(in))
	index := make(map[string]int, len(in))
	for _, fd := range in {
		uri, ok := canonicalURI(fd.URI)
		if !ok {
			continue
		}
		i, seen := index[uri]
		if !seen {
			i = len(out)
			index[uri] = i
			out = append(out, FileDiagnostics{URI: uri})
		}
		out[i].Diagnostics = append(out[i].Diagnostics, fd.Diagnostics...)
	}
	capDiagnostics(out)
	for i := range out {
		slices.SortStableFunc(out[i].Diagnostics, func(a, b Diagnostic) int {
			return comparePositions(a.Range.Start, b.Range.Start)
		})
	}
	return slices.DeleteFunc(out, func(fd FileDiagnostics) bool { return len(fd.Diagnostics) == 0 })
}

// capDiagnostics keeps the MaxDiagnostics most severe diagnostics over all
// files; among equals, earlier files and earlier entries win. It edits the
// Diagnostics slices of files, which normalizeDiagnostics owns.
func capDiagnostics(files []FileDiagnostics) {
	total := 0
	for _, fd := range files {
		total += len(fd.Diagnostics)
	}
	if total <= MaxDiagnostics {
		return
	}
	// Count per severity rank, then find the rank at which the cap falls
	// and how many of that rank still fit.
	var perRank [int(SeverityHint) + 2]int
	for _, fd := range files {
		for _, d := range fd.Diagnostics {
			perRank[severityRank(d.Severity)]++
		}
	}
	budget := make([]int, len(perRank))
	left := MaxDiagnostics
	for r, n := range perRank {
		budget[r] = min(n, left)
		left -= budget[r]
	}
	for i := range files {
		files[i].Diagnostics = slices.DeleteFunc(files[i].Diagnostics, func(d Diagnostic) bool {
			r := severityRank(d.Severity)
			if budget[r] == 0 {
				return true
			}
			budget[r]--
			return false
		})
	}
}
