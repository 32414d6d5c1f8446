package agent

import (
	"context"
	"fmt"

	"companion/agent/model"
	"companion/tools/builtin"
)

// ReadMention reads a file the user mentioned in the editor (a link to a
// file inside the workspace) and returns it as prompt parts: the text, and
// images inline; the text is framed as data (see untrusted.go). A link
// that cannot be read is given to the model as a named link with the
// reason, so it can try its own tools.
func (s *Session) ReadMention(ctx context.Context, uri, name string) []model.Part {
	text, images, err := builtin.ReadForPrompt(ctx, s.env, uri)
	if err != nil {
		return []model.Part{{Text: fmt.Sprintf("[@%s](%s) (not attached: %v)", name, uri, err)}}
	}
	parts := []model.Part{{Text: frameData(s.dataNonce, "mention", text)}}
	for _, img := range images {
		parts = append(parts, model.Part{InlineData: &model.Blob{MIMEType: img.MIMEType, Data: img.Data}})
	}
	return parts
}
