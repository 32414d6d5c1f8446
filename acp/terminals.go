package acp

import (
	"context"
	"strings"

	"companion/tools"
)

// terminals runs commands in the editor's terminals (terminal/*).
type terminals struct {
	client *Client
}

// StartTerminal implements tools.Terminals.
func (t *terminals) StartTerminal(ctx context.Context, req tools.TerminalRequest) (tools.Terminal, error) {
	create := CreateTerminalRequest{Command: req.Command, Args: req.Args, Cwd: req.Dir}
	for _, kv := range req.Env {
		name, value, _ := strings.Cut(kv, "=")
		create.Env = append(create.Env, EnvVariable{Name: name, Value: value})
	}
	if req.OutputByteLimit > 0 {
		limit := req.OutputByteLimit
		create.OutputByteLimit = &limit
	}
	id, err := t.client.CreateTerminal(ctx, create)
	if err != nil {
		return nil, err
	}
	return &terminal{client: t.client, id: id}, nil
}

// terminal is one editor terminal.
type terminal struct {
	client *Client
	id     TerminalID
}

func (t *terminal) ID() string { return string(t.id) }

func (t *terminal) Output(ctx context.Context) (tools.TerminalOutput, error) {
	resp, err := t.client.TerminalOutput(ctx, t.id)
	if err != nil {
		return tools.TerminalOutput{}, err
	}
	out := tools.TerminalOutput{Output: resp.Output, Truncated: resp.Truncated}
	if e := resp.ExitStatus; e != nil {
		out.Exit = &tools.ExitStatus{Code: e.ExitCode, Signal: e.Signal}
	}
	return out, nil
}

func (t *terminal) Wait(ctx context.Context) (tools.ExitStatus, error) {
	resp, err := t.client.WaitForTerminalExit(ctx, t.id)
	if err != nil {
		return tools.ExitStatus{}, err
	}
	return tools.ExitStatus{Code: resp.ExitCode, Signal: resp.Signal}, nil
}

func (t *terminal) Kill(ctx context.Context) error    { return t.client.KillTerminal(ctx, t.id) }
func (t *terminal) Release(ctx context.Context) error { return t.client.ReleaseTerminal(ctx, t.id) }
