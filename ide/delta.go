package ide

import (
	"fmt"
	"slices"
	"strings"
)

// renderDelta writes what changed from prev to cur, one "- " item per
// change: workspace folders, trust, files opened and closed, the active
// file, its cursor and selection, and each file's diagnostics. It returns
// "" when nothing the model reads changed (a timestamp alone, say).
func renderDelta(prev, cur Context) string {
	var b strings.Builder
	if !slices.Equal(prev.WorkspaceFolders, cur.WorkspaceFolders) {
		b.WriteString("- Workspace folders are now:")
		for _, f := range cur.WorkspaceFolders {
			b.WriteString(" " + pathOf(f.URI))
		}
		b.WriteString("\n")
	}
	if !equalPtr(prev.IsTrusted, cur.IsTrusted) && cur.IsTrusted != nil {
		b.WriteString("- ")
		writeTrust(&b, cur.IsTrusted)
	}
	writeOpenedClosed(&b, prev.OpenFiles, cur.OpenFiles)
	writeActiveChange(&b, prev, cur)
	writeDiagnosticsChange(&b, prev.Diagnostics, cur.Diagnostics)
	if b.Len() == 0 {
		return ""
	}
	return deltaHeader + "\n" + b.String()
}

// writeOpenedClosed lists files in cur but not prev (opened) and in prev
// but not cur (closed, or pushed out by the MaxOpenFiles cap).
func writeOpenedClosed(b *strings.Builder, prev, cur []OpenFile) {
	for _, f := range cur {
		if !containsFile(prev, f.URI) {
			fmt.Fprintf(b, "- Opened: %s\n", pathOf(f.URI))
		}
	}
	for _, f := range prev {
		if !containsFile(cur, f.URI) {
			fmt.Fprintf(b, "- Closed: %s\n", pathOf(f.URI))
		}
	}
}

// containsFile reports whether files holds uri.
func containsFile(files []OpenFile, uri string) bool {
	return slices.ContainsFunc(files, func(f OpenFile) bool { return f.URI == uri })
}

// writeActiveChange reports a new active file (with its cursor and
// selection), or, for the same active file, a moved cursor and a changed
// or cleared selection.
func writeActiveChange(b *strings.Builder, prev, cur Context) {
	pa, hadActive := activeFile(prev)
	ca, hasActive := activeFile(cur)
	switch {
	case !hasActive && hadActive:
		b.WriteString("- No file is active now.\n")
		return
	case !hasActive:
		return
	case !hadActive || pa.URI != ca.URI:
		fmt.Fprintf(b, "- Active file: %s", pathOf(ca.URI))
		if parts := caretParts(ca); len(parts) > 0 {
			fmt.Fprintf(b, " (%s)", strings.Join(parts, ", "))
		}
		b.WriteString("\n")
		writeSelectedText(b, ca, false)
		return
	}
	if !equalPtr(pa.Cursor, ca.Cursor) && ca.Cursor != nil {
		fmt.Fprintf(b, "- Cursor moved to %s in %s\n", humanPos(*ca.Cursor), pathOf(ca.URI))
	}
	if equalPtr(pa.Selection, ca.Selection) && pa.SelectedText == ca.SelectedText {
		return
	}
	switch {
	case ca.Selection == nil && ca.SelectedText == "":
		fmt.Fprintf(b, "- Selection cleared in %s\n", pathOf(ca.URI))
	case ca.SelectedText == "":
		fmt.Fprintf(b, "- Selection is now %s in %s\n", humanRange(*ca.Selection), pathOf(ca.URI))
	default:
		writeSelectedText(b, ca, true)
	}
}

// writeSelectedText writes the active file's selected text, if any, as a
// fenced item, naming the selection's range when withRange.
func writeSelectedText(b *strings.Builder, f OpenFile, withRange bool) {
	if f.SelectedText == "" {
		return
	}
	where := pathOf(f.URI)
	if withRange && f.Selection != nil {
		where += " (" + humanRange(*f.Selection) + ")"
	}
	fmt.Fprintf(b, "- Selected text in %s:\n", where)
	writeFenced(b, f.URI, f.SelectedText)
}

// writeDiagnosticsChange writes the new list of each file whose
// diagnostics changed, and names the files that have none any more.
func writeDiagnosticsChange(b *strings.Builder, prev, cur []FileDiagnostics) {
	for _, fd := range cur {
		old, ok := findDiagnostics(prev, fd.URI)
		if ok && slices.Equal(old, fd.Diagnostics) {
			continue
		}
		fmt.Fprintf(b, "- Diagnostics in %s are now:\n", pathOf(fd.URI))
		writeDiagnostics(b, "  ", fd.Diagnostics)
	}
	for _, fd := range prev {
		if _, ok := findDiagnostics(cur, fd.URI); !ok {
			fmt.Fprintf(b, "- No diagnostics in %s any more\n", pathOf(fd.URI))
		}
	}
}

// findDiagnostics returns the diagnostics of uri in files.
func findDiagnostics(files []FileDiagnostics, uri string) ([]Diagnostic, bool) {
	for _, fd := range files {
		if fd.URI == uri {
			return fd.Diagnostics, true
		}
	}
	return nil, false
}
