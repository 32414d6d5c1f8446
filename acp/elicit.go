package acp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"companion/rpc"
	"companion/tools/mcp"
)

// elicitor lets a session's MCP servers ask the user for input through
// the client's elicitation/create form. It is nil when the client renders
// no forms: servers are then told companion cannot ask.
func elicitor(conn *rpc.Conn, id SessionID, caps ClientCapabilities) mcp.Elicitor {
	if caps.Elicitation == nil || caps.Elicitation.Form == nil {
		return nil
	}
	return func(ctx context.Context, q mcp.Elicitation) (mcp.ElicitAnswer, error) {
		if q.URL != "" {
			return urlElicitation(ctx, conn, id, caps, q)
		}
		var schema ElicitationSchema
		if err := json.Unmarshal(q.Schema, &schema); err != nil {
			return mcp.ElicitAnswer{}, fmt.Errorf("the form cannot be shown to the user: %w", err)
		}
		req := &CreateElicitationRequest{Message: "MCP server " + q.Server + ": " + q.Message,
			Form: &ElicitationFormMode{RequestedSchema: schema, Session: &ElicitationSessionScope{SessionID: id}}}
		resp, err := clientMethods{conn: conn}.ElicitationCreate(ctx, req)
		if err != nil {
			return mcp.ElicitAnswer{}, err
		}
		return elicitAnswer(*resp), nil
	}
}

// elicitAnswer turns the client's answer into the MCP one. An answer of a
// kind ACP does not name counts as cancelled.
func elicitAnswer(resp CreateElicitationResponse) mcp.ElicitAnswer {
	switch {
	case resp.Accept != nil:
		content := make(map[string]any, len(resp.Accept.Content))
		for k, v := range resp.Accept.Content {
			var x any
			if json.Unmarshal(v.Raw(), &x) == nil {
				content[k] = x
			}
		}
		return mcp.ElicitAnswer{Action: mcp.ElicitAccept, Content: content}
	case resp.Decline != nil:
		return mcp.ElicitAnswer{Action: mcp.ElicitDecline}
	}
	return mcp.ElicitAnswer{Action: mcp.ElicitCancel}
}

// urlElicitation sends the user to q.URL (an MCP server's OAuth
// authorization page) through a URL-mode elicitation/create, when the
// client supports them.
func urlElicitation(ctx context.Context, conn *rpc.Conn, id SessionID, caps ClientCapabilities, q mcp.Elicitation) (mcp.ElicitAnswer, error) {
	if caps.Elicitation.URL == nil {
		return mcp.ElicitAnswer{}, mcp.ErrNoURLElicitation
	}
	var b [12]byte
	_, _ = rand.Read(b[:])
	req := &CreateElicitationRequest{Message: "MCP server " + q.Server + ": " + q.Message,
		URL: &ElicitationURLMode{ElicitationID: ElicitationID("mcp-auth-" + hex.EncodeToString(b[:])), URL: q.URL,
			Session: &ElicitationSessionScope{SessionID: id}}}
	resp, err := clientMethods{conn: conn}.ElicitationCreate(ctx, req)
	if err != nil {
		return mcp.ElicitAnswer{}, err
	}
	return elicitAnswer(*resp), nil
}
