package ide

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
)

// MethodContextUpdate is the ACP extension notification that carries a
// Context from an ACP client (DESIGN.md, "Extension: IDE context over ACP").
const MethodContextUpdate = "_companion/ide/contextUpdate"

// CompanionMethodContextUpdate is the Gemini CLI IDE companion notification
// whose params FromCompanionSpec reads.
const CompanionMethodContextUpdate = "ide/contextUpdate"

// updateParams is the params object of MethodContextUpdate.
type updateParams struct {
	SessionID string `json:"sessionId"`
	Context
}

// ParseUpdate decodes the params of MethodContextUpdate. sessionID is ""
// when the client did not name a session. The context is normalised (see
// Context.Normalize). Malformed params fail with ErrInvalidUpdate: not a
// JSON object, a field of the wrong type, an entry without a uri.
func ParseUpdate(raw json.RawMessage) (sessionID string, ctx Context, err error) {
	if err := requireObject(raw); err != nil {
		return "", Context{}, err
	}
	var p updateParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return "", Context{}, fmt.Errorf("%w: %w", ErrInvalidUpdate, err)
	}
	if err := p.Context.validate(); err != nil {
		return "", Context{}, err
	}
	return p.SessionID, p.Context.Normalize(), nil
}

// requireObject fails unless raw is a JSON object (by its first byte; the
// decoder checks the rest).
func requireObject(raw json.RawMessage) error {
	t := bytes.TrimLeft(raw, " \t\r\n")
	if len(t) == 0 || t[0] != '{' {
		return fmt.Errorf("%w: params must be a JSON object", ErrInvalidUpdate)
	}
	return nil
}

// validate checks what JSON types cannot: every entry names a URI.
func (c Context) validate() error {
	for i, f := range c.WorkspaceFolders {
		if f.URI == "" {
			return fmt.Errorf("%w: workspaceFolders[%d] has no uri", ErrInvalidUpdate, i)
		}
	}
	for i, f := range c.OpenFiles {
		if f.URI == "" {
			return fmt.Errorf("%w: openFiles[%d] has no uri", ErrInvalidUpdate, i)
		}
	}
	for i, d := range c.Diagnostics {
		if d.URI == "" {
			return fmt.Errorf("%w: diagnostics[%d] has no uri", ErrInvalidUpdate, i)
		}
	}
	return nil
}

// companionParams is the params object of CompanionMethodContextUpdate.
// isTrusted is read inside workspaceState (the spec) and at the top level.
type companionParams struct {
	WorkspaceState *struct {
		OpenFiles []companionFile `json:"openFiles"`
		IsTrusted *bool           `json:"isTrusted"`
	} `json:"workspaceState"`
	IsTrusted *bool `json:"isTrusted"`
}

// companionFile is one open file in the companion spec: an absolute path
// and, for the active file, a 1-based cursor.
type companionFile struct {
	Path      string `json:"path"`
	Timestamp int64  `json:"timestamp"`
	IsActive  bool   `json:"isActive"`
	Cursor    *struct {
		Line      int64 `json:"line"`
		Character int64 `json:"character"`
	} `json:"cursor"`
	SelectedText string `json:"selectedText"`
}

// FromCompanionSpec converts the params of the Gemini CLI companion's
// ide/contextUpdate into a normalised Context: paths become file:// URIs
// and the 1-based cursor becomes a 0-based LSP Position. The companion
// sends no workspace folders or diagnostics, so those stay nil (unchanged
// in a Tracker); absent openFiles stay nil too. Files whose path is not
// absolute are dropped; an entry without a path fails with ErrInvalidUpdate.
func FromCompanionSpec(params json.RawMessage) (Context, error) {
	if err := requireObject(params); err != nil {
		return Context{}, err
	}
	var p companionParams
	if err := json.Unmarshal(params, &p); err != nil {
		return Context{}, fmt.Errorf("%w: %w", ErrInvalidUpdate, err)
	}
	var c Context
	c.IsTrusted = p.IsTrusted
	if ws := p.WorkspaceState; ws != nil {
		if ws.IsTrusted != nil {
			c.IsTrusted = ws.IsTrusted
		}
		if ws.OpenFiles != nil {
			files, err := convertCompanionFiles(ws.OpenFiles)
			if err != nil {
				return Context{}, err
			}
			c.OpenFiles = files
		}
	}
	return c.Normalize(), nil
}

// convertCompanionFiles maps companion open files onto OpenFile.
func convertCompanionFiles(in []companionFile) ([]OpenFile, error) {
	out := make([]OpenFile, 0, len(in))
	for i, f := range in {
		if f.Path == "" {
			return nil, fmt.Errorf("%w: openFiles[%d] has no path", ErrInvalidUpdate, i)
		}
		if !isAbsPath(f.Path) {
			continue
		}
		of := OpenFile{
			URI:          URIFromPath(f.Path),
			IsActive:     f.IsActive,
			Timestamp:    f.Timestamp,
			SelectedText: f.SelectedText,
		}
		if f.Cursor != nil {
			of.Cursor = &Position{Line: zeroBased(f.Cursor.Line), Character: zeroBased(f.Cursor.Character)}
		}
		out = append(out, of)
	}
	return out, nil
}

// zeroBased turns a 1-based number into a 0-based one, clamped to uint32.
func zeroBased(n int64) uint32 {
	switch {
	case n <= 1:
		return 0
	case n-1 > math.MaxUint32:
		return math.MaxUint32
	default:
		return uint32(n - 1)
	}
}
