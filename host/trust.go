package host

import (
	"context"
	"errors"

	"companion/config"
	"companion/ide"
)

// Why a workspace is not trusted, as the notice says it.
const (
	whyEditor = "the editor says this workspace is not trusted"
	whyFolder = "folderTrust is on and this folder is not in the trusted list"
)

// errUntrusted refuses accepting project settings in an untrusted workspace.
var errUntrusted = errors.New("the workspace is not trusted; trust it first (companion trust)")

// trust is what a session's trust is made of: the settings' folder trust
// and the editor's word. The editor saying "not trusted" always wins.
type trust struct {
	// folder is false when folderTrust is on and the folder is not trusted.
	folder bool
	// editor is the editor's isTrusted; nil until it says.
	editor *bool
	// told is set once the user has been told why the workspace is not
	// trusted.
	told bool
	// loaded is set when the session opened trusted, with the project's
	// settings, hooks, MCP servers, commands and subagents.
	loaded bool
}

// trusted reports whether the workspace is trusted.
func (t trust) trusted() bool { return t.folder && (t.editor == nil || *t.editor) }

// why says why the workspace is not trusted; "" when it is.
func (t trust) why() string {
	switch {
	case t.editor != nil && !*t.editor:
		return whyEditor
	case !t.folder:
		return whyFolder
	}
	return ""
}

// UntrustedNotice is what the user is told once about an untrusted
// workspace: why, and what is held back.
func UntrustedNotice(why string) string {
	return "This workspace is not trusted (" + why + "): its project settings, hooks, MCP servers, " +
		"file commands, skills and subagents are not loaded, yolo and auto-edit are unavailable, and every edit and " +
		"command asks first. To trust it, run `companion trust` in the folder (or :CompanionTrust in Neovim, " +
		"or grant trust in the editor), then start a new session."
}

// lostTrustNotice is what the user of a session that opened trusted is
// told when the workspace loses trust.
func lostTrustNotice(why string) string {
	return "This workspace is no longer trusted (" + why + "): yolo and auto-edit are unavailable, every " +
		"edit and command asks first, and the project's hooks and MCP servers are stopped until it is trusted again."
}

// sessionTrust is the trust a new session under root starts with: the
// settings' folder trust and the editor's last connection-wide word.
func (h *Host) sessionTrust(cfg config.Config, root string) trust {
	h.mu.Lock()
	defer h.mu.Unlock()
	return trust{folder: cfg.FolderTrust.Trusts(root), editor: h.editorTrust}
}

// applyEditorTrust takes the editor's isTrusted from a context update for
// session id (every session when id is empty): it is remembered for
// sessions opened later, and a live session whose trust changes is told.
func (h *Host) applyEditorTrust(id string, c ide.Context) {
	if c.IsTrusted == nil {
		return
	}
	v := *c.IsTrusted
	if id == "" {
		h.mu.Lock()
		h.editorTrust = &v
		h.mu.Unlock()
	}
	for _, s := range h.live() {
		if id == "" || s.ID == id {
			h.setEditorTrust(s, v)
		}
	}
}

// setEditorTrust records the editor's word for s and hands the session's
// resulting trust to its agent, with the notice the first time it is lost.
func (h *Host) setEditorTrust(s *Session, v bool) {
	h.trustMu.Lock()
	defer h.trustMu.Unlock()
	h.mu.Lock()
	s.trust.editor = &v
	t := s.trust
	notice := ""
	if !t.trusted() && !t.told {
		s.trust.told = true
		notice = UntrustedNotice(t.why())
		if t.loaded {
			notice = lostTrustNotice(t.why())
		}
	}
	h.mu.Unlock()
	if s.project != nil {
		s.project.set(t.trusted(), t.why())
	}
	if t.trusted() != s.Agent.Trusted() || notice != "" {
		s.Agent.SetTrusted(context.Background(), t.trusted(), notice)
	}
}
