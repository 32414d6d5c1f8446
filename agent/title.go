package agent

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"companion/agent/model"
)

// maxTitleRunes bounds a session title.
const maxTitleRunes = 60

// maybeTitle names the session after its first prompt.
func (s *engine) maybeTitle(ctx context.Context, parts []model.Part) {
	if done := s.titled.Swap(true); done {
		return
	}
	if title := titleFrom(parts); title != "" {
		s.emit(ctx, TitleChanged{Title: title, At: s.opts.Now().UTC().Format(time.RFC3339)})
		s.jw.setTitle(title)
	}
}

// titleFrom takes the first line of the prompt's text as plain words,
// shortened; a prompt of images alone is named for them.
func titleFrom(parts []model.Part) string {
	for _, p := range parts {
		line, _, _ := strings.Cut(strings.TrimSpace(p.Text), "\n")
		line = plainMarkdown(strings.Join(strings.Fields(line), " "))
		if line == "" {
			continue
		}
		if utf8.RuneCountInString(line) > maxTitleRunes {
			r := []rune(line)
			line = strings.TrimSpace(string(r[:maxTitleRunes-1])) + "…"
		}
		return line
	}
	for _, p := range parts {
		if p.InlineData != nil && strings.HasPrefix(p.InlineData.MIMEType, "image/") {
			return "Image"
		}
	}
	return ""
}

// plainMarkdown drops the markdown marks a title line may carry: a
// heading, quote or list marker, emphasis and code marks, and link
// targets ("[text](url)" becomes "text").
func plainMarkdown(line string) string {
	line = strings.TrimLeft(line, "#> ")
	for _, marker := range []string{"- ", "* ", "+ "} {
		line = strings.TrimPrefix(line, marker)
	}
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '`' || c == '*' || (c == '_' && (i+1 < len(line) && line[i+1] == '_' || i > 0 && line[i-1] == '_')):
		case c == ']' && i+1 < len(line) && line[i+1] == '(':
			if end := strings.IndexByte(line[i:], ')'); end > 0 {
				i += end
			}
		case c == '[' && strings.Contains(line[i:], "]("):
		default:
			b.WriteByte(c)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
