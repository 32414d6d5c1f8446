package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"companion/agent/model"
	"companion/tools/builtin"
)

// PromptParts turns text typed at a prompt (a -p prompt, a chat line)
// into the prompt's parts: the text as typed, then the content of each
// file or folder it names as "@path" (relative to the session root, or
// absolute inside the workspace), read as an editor's @-mention is
// (ReadMention), as Gemini CLI does. Words that name no existing path
// (an "@someone") stay text only; so does a slash command line.
func (s *Session) PromptParts(ctx context.Context, text string) []model.Part {
	parts := []model.Part{{Text: text}}
	if strings.HasPrefix(strings.TrimSpace(text), "/") {
		return parts
	}
	seen := map[string]bool{}
	for _, name := range atWords(text) {
		abs, ok := s.existing(name)
		if !ok {
			name = strings.TrimRight(name, ",.;:!?)'\"")
			if abs, ok = s.existing(name); !ok {
				continue
			}
		}
		if seen[abs] {
			continue
		}
		seen[abs] = true
		parts = append(parts, s.ReadMention(ctx, abs, name)...)
	}
	return parts
}

// existing resolves a typed path against the session root and reports
// whether something is there.
func (s *Session) existing(name string) (string, bool) {
	if name == "" {
		return "", false
	}
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.Root(), p)
	}
	_, err := os.Stat(p)
	return p, err == nil
}

// atWords are the "@path" words of typed text: an @ at the start or after
// white space, then a path up to the next unescaped white space (a
// backslash escapes a space, as Gemini CLI reads them).
func atWords(text string) []string {
	var out []string
	for i := 0; i < len(text); i++ {
		if text[i] != '@' || (i > 0 && !isSpace(text[i-1])) {
			continue
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(text) && !isSpace(text[j]); j++ {
			if text[j] == '\\' && j+1 < len(text) && text[j+1] == ' ' {
				j++
			}
			b.WriteByte(text[j])
		}
		if b.Len() > 0 {
			out = append(out, b.String())
		}
		i = j
	}
	return out
}

// isSpace reports whether c is ASCII white space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

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
