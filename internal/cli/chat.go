package cli

import (
	"context"

	"companion/chat"
	"companion/host"
	"companion/tools/sandbox"
)

// RunChat runs the interactive chat (`companion` alone in a terminal) as
// o says, with the real model source and the built-in tools, and returns
// the exit code.
func RunChat(ctx context.Context, o chat.Options) int {
	models := host.NewModels(o.Log)
	defer models.Close()
	if o.Sandbox == nil {
		o.Sandbox = sandbox.NewProber(nil)
	}
	o.Model, o.Tools = models.Get, BuiltinTools(o.Sandbox)
	if o.Redact == nil {
		o.Redact = NewRedactor(o.Config).Bytes
	}
	o.Name = "companion"
	return chat.Run(ctx, o)
}
