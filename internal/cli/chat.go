package cli

import (
	"context"

	"companion/chat"
)

// RunChat runs the interactive chat (`companion` alone in a terminal) as
// o says, with the real model source and the built-in tools, and returns
// the exit code.
func RunChat(ctx context.Context, o chat.Options) int {
	defer realHost(&o.Options)()
	return chat.Run(ctx, o)
}
