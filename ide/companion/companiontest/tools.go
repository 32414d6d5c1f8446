package companiontest

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// ToolCall is one call of openDiff or closeDiff.
type ToolCall struct {
	// Name is "openDiff" or "closeDiff".
	Name       string
	FilePath   string
	NewContent string
	// SuppressNotification is closeDiff's flag.
	SuppressNotification bool
}

// newMCPServer builds the MCP server with the two diff tools.
func (s *Server) newMCPServer() *server.MCPServer {
	m := server.NewMCPServer("companiontest", "1.0.0", server.WithToolCapabilities(false))
	m.AddTool(mcp.NewTool("openDiff",
		mcp.WithDescription("Shows a diff of the file against new content."),
		mcp.WithString("filePath", mcp.Required()),
		mcp.WithString("newContent", mcp.Required()),
	), s.openDiff)
	m.AddTool(mcp.NewTool("closeDiff",
		mcp.WithDescription("Closes the diff of the file and returns its content."),
		mcp.WithString("filePath", mcp.Required()),
		mcp.WithBoolean("suppressNotification"),
	), s.closeDiff)
	return m
}

// openDiff records the diff and answers at once, with content [] (or the
// error set by FailOpenDiff).
func (s *Server) openDiff(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	path, err := req.RequireString("filePath")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	content := req.GetString("newContent", "")
	s.mu.Lock()
	fail := s.openDiffErr
	if fail == "" {
		s.diffs[path] = content
	}
	s.mu.Unlock()
	s.record(ctx, ToolCall{Name: "openDiff", FilePath: path, NewContent: content})
	if fail != "" {
		return mcp.NewToolResultError(fail), nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{}}, nil
}

// closeDiff closes the diff and returns its text: raw, or as JSON
// {"content": ...} after SetCloseDiffJSON(true) (null for no open diff).
func (s *Server) closeDiff(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	path, err := req.RequireString("filePath")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	s.mu.Lock()
	text, open := s.diffs[path]
	delete(s.diffs, path)
	asJSON := s.closeJSON
	s.mu.Unlock()
	s.record(ctx, ToolCall{Name: "closeDiff", FilePath: path, SuppressNotification: req.GetBool("suppressNotification", false)})
	if !asJSON {
		return mcp.NewToolResultText(text), nil
	}
	var body struct {
		Content *string `json:"content"`
	}
	if open {
		body.Content = &text
	}
	data, _ := json.Marshal(body)
	return mcp.NewToolResultText(string(data)), nil
}

// record queues a call for NextCall, unless the server or the request ends
// first.
func (s *Server) record(ctx context.Context, call ToolCall) {
	select {
	case s.calls <- call:
	case <-ctx.Done():
	case <-s.done:
	}
}

// NextCall returns the next openDiff or closeDiff call, in order, waiting
// for it until ctx ends.
func (s *Server) NextCall(ctx context.Context) (ToolCall, error) {
	select {
	case c := <-s.calls:
		return c, nil
	case <-ctx.Done():
		return ToolCall{}, ctx.Err()
	}
}

// Accept answers the open diff of filePath as accepted with content, the
// text after the user's edits: ide/diffAccepted {filePath, content}.
func (s *Server) Accept(filePath, content string) error {
	if err := s.takeDiff(filePath); err != nil {
		return err
	}
	return s.Notify(MethodDiffAccepted, map[string]any{"filePath": filePath, "content": content})
}

// Reject answers the open diff of filePath as rejected, the spec's way:
// ide/diffRejected {filePath}.
func (s *Server) Reject(filePath string) error {
	if err := s.takeDiff(filePath); err != nil {
		return err
	}
	return s.Notify(MethodDiffRejected, map[string]any{"filePath": filePath})
}

// Edit replaces the text of the open diff of filePath, as a user editing in
// the diff view; closeDiff returns it.
func (s *Server) Edit(filePath, content string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.diffs[filePath]; !ok {
		return fmt.Errorf("%w: %s", errNoDiff, filePath)
	}
	s.diffs[filePath] = content
	return nil
}

// SetCloseDiffJSON chooses closeDiff's result form: JSON {"content": ...}
// as the shipped VS Code extension answers (true), or the raw text as the
// spec says (false, the default).
func (s *Server) SetCloseDiffJSON(asJSON bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeJSON = asJSON
}

// FailOpenDiff makes openDiff answer with an error result carrying msg
// ("" restores success).
func (s *Server) FailOpenDiff(msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.openDiffErr = msg
}

// takeDiff removes the open diff of filePath.
func (s *Server) takeDiff(filePath string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.diffs[filePath]; !ok {
		return fmt.Errorf("%w: %s", errNoDiff, filePath)
	}
	delete(s.diffs, filePath)
	return nil
}
