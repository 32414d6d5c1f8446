package ide

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Limits applied by Normalize, the same as Gemini CLI's IDE integration.
const (
	// MaxOpenFiles is how many open files a context keeps (the newest).
	MaxOpenFiles = 10
	// MaxSelectedBytes bounds SelectedText, marker included.
	MaxSelectedBytes = 16 * 1024
	// MaxDiagnostics bounds the diagnostics over all files (most severe kept).
	MaxDiagnostics = 200
	// SelectionTruncatedMarker ends a selected text that Normalize cut.
	SelectionTruncatedMarker = "[selection truncated]"
)

// Position is an LSP position: 0-based line and 0-based character offset
// (UTF-16 code units, as LSP says by default). Unsigned, as LSP's uinteger,
// so a negative number in JSON is a type error.
type Position struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

// Range is an LSP range: Start inclusive, End exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// WorkspaceFolder is an LSP workspace folder: a file:// URI and a display name.
type WorkspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// OpenFile is one file open in the editor. URI is a file:// URI; Timestamp is
// when the file was last focused (unix milliseconds). Cursor, Selection and
// SelectedText are only kept for the active file.
type OpenFile struct {
	URI          string    `json:"uri"`
	IsActive     bool      `json:"isActive,omitempty"`
	Timestamp    int64     `json:"timestamp"`
	Cursor       *Position `json:"cursor,omitempty"`
	Selection    *Range    `json:"selection,omitempty"`
	SelectedText string    `json:"selectedText,omitempty"`
}

// DiagnosticSeverity is LSP's severity: 1 error, 2 warning, 3 information,
// 4 hint; 0 means the editor did not say.
type DiagnosticSeverity int

// The LSP diagnostic severities.
const (
	SeverityError       DiagnosticSeverity = 1
	SeverityWarning     DiagnosticSeverity = 2
	SeverityInformation DiagnosticSeverity = 3
	SeverityHint        DiagnosticSeverity = 4
)

// DiagnosticCode is an LSP diagnostic code, which is an integer or a string
// on the wire. It is kept as text: a number arrives as its decimal digits and
// is written back as a JSON string.
type DiagnosticCode string

// UnmarshalJSON accepts a JSON string or integer.
func (c *DiagnosticCode) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*c = DiagnosticCode(s)
		return nil
	}
	if string(b) == "null" {
		return nil
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return fmt.Errorf("diagnostic code %s: %w", b, ErrInvalidUpdate)
	}
	*c = DiagnosticCode(strconv.FormatInt(n, 10))
	return nil
}

// Diagnostic is an LSP diagnostic, reduced to what the model reads.
type Diagnostic struct {
	Range    Range              `json:"range"`
	Severity DiagnosticSeverity `json:"severity,omitempty"`
	Code     DiagnosticCode     `json:"code,omitempty"`
	Source   string             `json:"source,omitempty"`
	Message  string             `json:"message"`
}

// FileDiagnostics holds the diagnostics of one file (a file:// URI).
type FileDiagnostics struct {
	URI         string       `json:"uri"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// Context is what the editor tells the agent about itself: the params of
// `_companion/ide/contextUpdate` without sessionId.
//
// A nil slice or nil IsTrusted means "not sent": Tracker.Update keeps the
// previous value of that field. A non-nil empty slice means "now empty" (all
// files closed, no diagnostics). JSON keeps the difference: an absent or null
// field decodes to nil, `[]` to an empty slice, and encoding omits only nil
// (omitzero).
type Context struct {
	WorkspaceFolders []WorkspaceFolder `json:"workspaceFolders,omitzero"`
	OpenFiles        []OpenFile        `json:"openFiles,omitzero"`
	Diagnostics      []FileDiagnostics `json:"diagnostics,omitzero"`
	IsTrusted        *bool             `json:"isTrusted,omitzero"`
}
