package lspclient

import (
	"context"
	"encoding/json"
)

// The kinds of a pulled diagnostic report.
const (
	// ReportFull carries the document's whole set of diagnostics.
	ReportFull = "full"
	// ReportUnchanged says the set is the one of the report whose
	// ResultID the request gave as previous; it carries no items.
	ReportUnchanged = "unchanged"
)

// DiagnosticReport is one document's pulled diagnostics (LSP 3.17): a
// full report with Items, or an unchanged one that repeats the report of
// ResultID.
type DiagnosticReport struct {
	Kind     string       `json:"kind"`
	ResultID string       `json:"resultId,omitempty"`
	Items    []Diagnostic `json:"items,omitempty"`
}

// DocumentDiagnosticReport is textDocument/diagnostic's answer: the
// document's report and, for a server whose diagnostics span files, the
// reports of other documents the change affected, by URI.
type DocumentDiagnosticReport struct {
	DiagnosticReport
	RelatedDocuments map[string]DiagnosticReport `json:"relatedDocuments,omitempty"`
}

// diagnosticOptions is the object form of the diagnosticProvider
// capability, reduced to what a pull sends back.
type diagnosticOptions struct {
	Identifier string `json:"identifier,omitempty"`
}

// PullsDiagnostics reports whether the server answers
// textDocument/diagnostic (it said diagnosticProvider).
func (c *Client) PullsDiagnostics() bool { return Has(c.caps.DiagnosticProvider) }

// PullDiagnostics asks the server for the diagnostics of the document
// uri (textDocument/diagnostic). previousResultID, when not "", is the
// ResultID of the last report the caller kept for uri: the server may
// then answer ReportUnchanged. A busy server's "ask again" is
// ErrRetrigger.
func (c *Client) PullDiagnostics(ctx context.Context, uri, previousResultID string) (*DocumentDiagnosticReport, error) {
	var opts diagnosticOptions
	_ = json.Unmarshal(c.caps.DiagnosticProvider, &opts) // true, or options
	params := struct {
		TextDocument     DocumentID `json:"textDocument"`
		Identifier       string     `json:"identifier,omitempty"`
		PreviousResultID string     `json:"previousResultId,omitempty"`
	}{DocumentID{URI: uri}, opts.Identifier, previousResultID}
	var out DocumentDiagnosticReport
	if err := c.call(ctx, "textDocument/diagnostic", params, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
