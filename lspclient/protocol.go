package lspclient

import "encoding/json"

// Position is a zero-based line and UTF-16 character offset.
type Position struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

// Range is a span between two positions, end exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document named by its URI.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// locationOrLink decodes one element of a definition answer, which is a
// Location or a LocationLink.
type locationOrLink struct {
	URI                  string `json:"uri"`
	Range                Range  `json:"range"`
	TargetURI            string `json:"targetUri"`
	TargetSelectionRange Range  `json:"targetSelectionRange"`
}

// location is the Location the element names.
func (l locationOrLink) location() Location {
	if l.TargetURI != "" {
		return Location{URI: l.TargetURI, Range: l.TargetSelectionRange}
	}
	return Location{URI: l.URI, Range: l.Range}
}

// Severity is a diagnostic's severity: 1 error, 2 warning, 3 information,
// 4 hint.
type Severity int

// The diagnostic severities.
const (
	SeverityError   Severity = 1
	SeverityWarning Severity = 2
)

// Diagnostic is one problem a server reports in a document.
type Diagnostic struct {
	Range    Range           `json:"range"`
	Severity Severity        `json:"severity,omitempty"`
	Code     json.RawMessage `json:"code,omitempty"`
	Source   string          `json:"source,omitempty"`
	Message  string          `json:"message"`
}

// PublishDiagnostics is the textDocument/publishDiagnostics notification:
// the whole set of a document's diagnostics, for its Version when the
// server says.
type PublishDiagnostics struct {
	URI         string       `json:"uri"`
	Version     *int32       `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// TextDocumentItem is a document opened with its text.
type TextDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int32  `json:"version"`
	Text       string `json:"text"`
}

// DocumentID names a document.
type DocumentID struct {
	URI string `json:"uri"`
}

// VersionedDocumentID names a document at a version.
type VersionedDocumentID struct {
	URI     string `json:"uri"`
	Version int32  `json:"version"`
}

// contentChange replaces a document's whole text.
type contentChange struct {
	Text string `json:"text"`
}

// PositionParams name a position in a document.
type PositionParams struct {
	TextDocument DocumentID `json:"textDocument"`
	Position     Position   `json:"position"`
}

// TextEdit replaces a range of a document with NewText.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// DocumentEdit is a list of edits of one document (a TextDocumentEdit).
type DocumentEdit struct {
	TextDocument DocumentID `json:"textDocument"`
	Edits        []TextEdit `json:"edits"`
}

// WorkspaceEdit is a change to several documents: Changes by URI, or
// DocumentChanges (edits; entries that create, rename or delete files
// decode with an empty URI).
type WorkspaceEdit struct {
	Changes         map[string][]TextEdit `json:"changes,omitempty"`
	DocumentChanges []DocumentEdit        `json:"documentChanges,omitempty"`
}

// SymbolKind is LSP's kind of symbol (12 function, 6 method, 23 struct…).
type SymbolKind int

// DocumentSymbol is a symbol of a document with its children; servers that
// answer with flat SymbolInformation fill Location instead of the ranges.
type DocumentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           SymbolKind       `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []DocumentSymbol `json:"children,omitempty"`
	Location       *Location        `json:"location,omitempty"`
	ContainerName  string           `json:"containerName,omitempty"`
}

// SymbolInformation is a workspace symbol.
type SymbolInformation struct {
	Name          string     `json:"name"`
	Kind          SymbolKind `json:"kind"`
	Location      Location   `json:"location"`
	ContainerName string     `json:"containerName,omitempty"`
}

// Hover is a hover answer; Contents is MarkupContent, a MarkedString or a
// list of them (see HoverText).
type Hover struct {
	Contents json.RawMessage `json:"contents"`
	Range    *Range          `json:"range,omitempty"`
}

// WorkspaceFolder is a root the server sees.
type WorkspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// initializeParams are what initialize sends.
type initializeParams struct {
	ProcessID             int               `json:"processId"`
	ClientInfo            clientInfo        `json:"clientInfo"`
	RootURI               string            `json:"rootUri"`
	WorkspaceFolders      []WorkspaceFolder `json:"workspaceFolders"`
	Capabilities          any               `json:"capabilities"`
	InitializationOptions json.RawMessage   `json:"initializationOptions,omitempty"`
}

// clientInfo names the client to the server.
type clientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// ServerInfo names the server, when it says.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// initializeResult is initialize's answer, reduced to what is read.
type initializeResult struct {
	Capabilities Capabilities `json:"capabilities"`
	ServerInfo   *ServerInfo  `json:"serverInfo,omitempty"`
}

// Capabilities are the server's capabilities that companion uses; each is
// a bool or an options object on the wire, so each is kept raw and read
// by Has.
type Capabilities struct {
	DefinitionProvider      json.RawMessage `json:"definitionProvider,omitempty"`
	ReferencesProvider      json.RawMessage `json:"referencesProvider,omitempty"`
	HoverProvider           json.RawMessage `json:"hoverProvider,omitempty"`
	DocumentSymbolProvider  json.RawMessage `json:"documentSymbolProvider,omitempty"`
	WorkspaceSymbolProvider json.RawMessage `json:"workspaceSymbolProvider,omitempty"`
	RenameProvider          json.RawMessage `json:"renameProvider,omitempty"`
	// DiagnosticProvider is set by a server that answers pulls for
	// diagnostics (textDocument/diagnostic, LSP 3.17).
	DiagnosticProvider json.RawMessage `json:"diagnosticProvider,omitempty"`
}

// Has reports whether a capability value says yes: true or an object.
func Has(raw json.RawMessage) bool {
	s := string(raw)
	return s != "" && s != "false" && s != "null"
}

// clientCapabilities are what companion tells servers it understands:
// full-text sync, versioned push diagnostics, pulled diagnostics with
// related documents (statically registered only), markdown hover,
// hierarchical document symbols and document-change workspace edits.
func clientCapabilities() any {
	return map[string]any{
		"textDocument": map[string]any{
			"synchronization":    map[string]any{"didSave": false},
			"publishDiagnostics": map[string]any{"versionSupport": true},
			"diagnostic":         map[string]any{"dynamicRegistration": false, "relatedDocumentSupport": true},
			"hover":              map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
			"definition":         map[string]any{"linkSupport": true},
			"references":         map[string]any{},
			"documentSymbol":     map[string]any{"hierarchicalDocumentSymbolSupport": true},
			"rename":             map[string]any{"prepareSupport": false},
		},
		"workspace": map[string]any{
			"workspaceFolders": true,
			"configuration":    true,
			"symbol":           map[string]any{},
			"workspaceEdit":    map[string]any{"documentChanges": true},
		},
		"window":  map[string]any{"workDoneProgress": false},
		"general": map[string]any{"positionEncodings": []string{"utf-16"}},
	}
}
