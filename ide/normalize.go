package ide

import (
	"cmp"
	"path/filepath"
	"slices"
	"unicode/utf8"
)

// Normalize returns c within the package's limits, without changing c:
//   - URIs that are not file:// are dropped; the others are rewritten in one
//     canonical form, and duplicates merged (the newest open file wins);
//   - open files are sorted newest first by Timestamp and cut to
//     MaxOpenFiles; only the newest can be active, and only if the editor
//     marked it so; the others lose cursor, selection and selected text;
//   - the selected text is cut on a rune boundary to MaxSelectedBytes,
//     ending in SelectionTruncatedMarker;
//   - at most MaxDiagnostics diagnostics are kept, errors first, then
//     warnings, information, hints; within a file they are ordered by
//     position, and files left without diagnostics are dropped;
//   - a workspace folder without a name is named after its last element.
//
// Nil fields stay nil, so "not sent" survives (see Context). Normalize is
// idempotent.
func (c Context) Normalize() Context {
	out := Context{IsTrusted: c.IsTrusted}
	if c.IsTrusted != nil {
		v := *c.IsTrusted
		out.IsTrusted = &v
	}
	if c.WorkspaceFolders != nil {
		out.WorkspaceFolders = normalizeFolders(c.WorkspaceFolders)
	}
	if c.OpenFiles != nil {
		out.OpenFiles = normalizeFiles(c.OpenFiles)
	}
	if c.Diagnostics != nil {
		out.Diagnostics = normalizeDiagnostics(c.Diagnostics)
	}
	return out
}

// normalizeFolders drops non-file and duplicate folders and fills in names.
func normalizeFolders(in []WorkspaceFolder) []WorkspaceFolder {
	out := make([]WorkspaceFolder, 0, len(in))
	seen := make(map[string]bool, len(in))
	for _, f := range in {
		uri, ok := canonicalURI(f.URI)
		if !ok || seen[uri] {
			continue
		}
		seen[uri] = true
		f.URI = uri
		if f.Name == "" {
			p, _ := PathFromURI(uri)
			f.Name = filepath.Base(p)
		}
		out = append(out, f)
	}
	return out
}

// normalizeFiles applies the open-file rules of Normalize. Files are
// taken newest first and canonicalised only until MaxOpenFiles are kept,
// so an editor with hundreds of open files costs little more than one
// with ten.
func normalizeFiles(in []OpenFile) []OpenFile {
	sorted := slices.Clone(in)
	slices.SortStableFunc(sorted, func(a, b OpenFile) int { return cmp.Compare(b.Timestamp, a.Timestamp) })
	out := make([]OpenFile, 0, min(len(sorted), MaxOpenFiles))
	seen := make(map[string]bool, MaxOpenFiles)
	for _, f := range sorted {
		if len(out) == MaxOpenFiles {
			break
		}
		uri, ok := canonicalURI(f.URI)
		if !ok || seen[uri] {
			continue
		}
		seen[uri] = true
		f.URI = uri
		out = append(out, f)
	}
	for i := range out {
		f := &out[i]
		if i > 0 || !f.IsActive {
			f.IsActive, f.Cursor, f.Selection, f.SelectedText = false, nil, nil, ""
			continue
		}
		f.Cursor, f.Selection = clonePtr(f.Cursor), clonePtr(f.Selection)
		f.SelectedText = truncateSelection(f.SelectedText)
	}
	return out
}

// clonePtr copies *p so a normalised context shares nothing with its input.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// truncateSelection cuts s to MaxSelectedBytes, marker included, on a rune
// boundary.
func truncateSelection(s string) string {
	if len(s) <= MaxSelectedBytes {
		return s
	}
	cut := MaxSelectedBytes - len(SelectionTruncatedMarker) - 1
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "\n" + SelectionTruncatedMarker
}

// severityRank orders severities for the cap: errors first, unknown last.
func severityRank(s DiagnosticSeverity) int {
	if s >= SeverityError && s <= SeverityHint {
		return int(s)
	}
	return int(SeverityHint) + 1
}

// comparePositions orders positions by line, then character.
func comparePositions(a, b Position) int {
	return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Character, b.Character))
}
