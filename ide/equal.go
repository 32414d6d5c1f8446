package ide

import "slices"

// equalContext reports whether two contexts hold the same values; nil and
// empty slices differ, as they do in an update.
func equalContext(a, b Context) bool {
	return equalNil(a.WorkspaceFolders, b.WorkspaceFolders) && slices.Equal(a.WorkspaceFolders, b.WorkspaceFolders) &&
		equalNil(a.OpenFiles, b.OpenFiles) && slices.EqualFunc(a.OpenFiles, b.OpenFiles, equalFile) &&
		equalNil(a.Diagnostics, b.Diagnostics) && slices.EqualFunc(a.Diagnostics, b.Diagnostics, equalFileDiagnostics) &&
		equalPtr(a.IsTrusted, b.IsTrusted)
}

// equalNil reports whether a and b are both nil or both non-nil.
func equalNil[T any](a, b []T) bool { return (a == nil) == (b == nil) }

// equalPtr compares what two pointers point at; nil equals only nil.
func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// equalFile compares two open files by value.
func equalFile(a, b OpenFile) bool {
	return a.URI == b.URI && a.IsActive == b.IsActive && a.Timestamp == b.Timestamp &&
		equalPtr(a.Cursor, b.Cursor) && equalPtr(a.Selection, b.Selection) && a.SelectedText == b.SelectedText
}

// equalFileDiagnostics compares two files' diagnostics by value.
func equalFileDiagnostics(a, b FileDiagnostics) bool {
	return a.URI == b.URI && slices.Equal(a.Diagnostics, b.Diagnostics)
}
