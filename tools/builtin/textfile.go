package builtin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"companion/tools"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
)

// Byte order marks the editing tools recognise on local files.
const (
	bomUTF8    = "\xef\xbb\xbf"
	bomUTF16LE = "\xff\xfe"
	bomUTF16BE = "\xfe\xff"
)

// textEncoding is how a local file's text is stored on disk.
type textEncoding int

// Encodings of local text files.
const (
	encUTF8 textEncoding = iota
	encUTF16LE
	encUTF16BE
)

// textFile is a file's content as the editing tools see it: the text to
// match and show, and what is needed to write new text back the same way.
type textFile struct {
	// exists is false for a file not yet created; the fields below are then
	// zero.
	exists bool
	// raw is the content exactly as read (bytes on disk, or the editor's
	// text), so a later read can tell whether the file changed.
	raw string
	// text is the decoded text without a byte order mark, with the file's
	// own line endings.
	text string
	// local is set when the file came from disk rather than the editor; only
	// then are enc and bom used to write.
	local bool
	enc   textEncoding
	bom   bool
}

// sameAs reports whether g holds the content f was read with.
func (f *textFile) sameAs(g *textFile) bool {
	return f.exists == g.exists && f.local == g.local && f.raw == g.raw
}

// eol returns the line ending new text in this file should use.
func (f *textFile) eol() string { return eolOf(f.text) }

// editError is a problem with an edit that the model can fix (no match, an
// ambiguous match, elided code, a binary file). Its message is for the model.
type editError struct{ msg string }

func (e *editError) Error() string { return e.msg }

func editErrorf(format string, a ...any) error { return &editError{msg: fmt.Sprintf(format, a...)} }

// loadText reads the file at abs through the editor when it offers itself
// (its view includes unsaved changes), else from disk. A missing file is a
// textFile with exists false. Directories, binary files and files over
// limit bytes are editErrors; the size is checked on disk before anything
// is read, so a huge file costs nothing.
func loadText(ctx context.Context, env *tools.Env, abs, shown string, limit int64) (*textFile, error) {
	fi, statErr := tools.StatLocal(env.Roots, abs)
	switch {
	case statErr == nil && fi.IsDir():
		return nil, editErrorf("%s is a directory, not a file.", shown)
	case statErr == nil && fi.Size() > limit:
		return nil, tooLarge(shown, fi.Size(), limit)
	case statErr != nil && !errors.Is(statErr, fs.ErrNotExist):
		return nil, fmt.Errorf("read %s: %w", shown, statErr)
	}
	if env.Files != nil {
		return loadEditorText(ctx, env, abs, shown, limit)
	}
	if statErr != nil {
		return &textFile{local: true}, nil
	}
	data, err := tools.ReadLocal(env.Roots, abs, limit)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &textFile{local: true}, nil
	case errors.Is(err, tools.ErrFileTooLarge):
		return nil, editErrorf("%s grew past the %s limit for editing while it was read.", shown, tools.FormatSize(limit))
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", shown, err)
	}
	f, ok := decodeText(data)
	if !ok {
		return nil, binaryFile(shown)
	}
	return f, nil
}

// loadEditorText is loadText through the editor.
func loadEditorText(ctx context.Context, env *tools.Env, abs, shown string, limit int64) (*textFile, error) {
	text, err := env.Files.ReadTextFile(tools.WithRoots(ctx, env.Roots), abs)
	if errors.Is(err, fs.ErrNotExist) {
		return &textFile{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", shown, err)
	}
	if int64(len(text)) > limit {
		return nil, tooLarge(shown, int64(len(text)), limit)
	}
	if strings.IndexByte(text, 0) >= 0 {
		return nil, binaryFile(shown)
	}
	return &textFile{exists: true, raw: text, text: text}, nil
}

func tooLarge(shown string, size, limit int64) error {
	return editErrorf("%s is %s, over the %s limit for editing.", shown, tools.FormatSize(size), tools.FormatSize(limit))
}

func binaryFile(shown string) error {
	return editErrorf("%s is a binary file (it contains NUL bytes); only text files can be edited.", shown)
}

// decodeText turns a local file's bytes into a textFile: a UTF-16 file with
// a byte order mark is decoded, a UTF-8 mark is noted and removed. ok is
// false for text with NUL characters (a binary file). Other bytes are kept
// as they are, so invalid UTF-8 outside the edited region survives a round
// trip.
func decodeText(s string) (f *textFile, ok bool) {
	f = &textFile{exists: true, local: true, raw: s}
	switch {
	case strings.HasPrefix(s, bomUTF8):
		f.bom, f.text = true, s[len(bomUTF8):]
	case strings.HasPrefix(s, bomUTF16LE):
		f.bom, f.enc = true, encUTF16LE
	case strings.HasPrefix(s, bomUTF16BE):
		f.bom, f.enc = true, encUTF16BE
	default:
		f.text = s
	}
	if f.enc != encUTF8 {
		text, err := utf16Codec(f.enc).NewDecoder().String(s[2:])
		if err != nil {
			return nil, false
		}
		f.text = text
	}
	if strings.IndexByte(f.text, 0) >= 0 {
		return nil, false
	}
	return f, true
}

// utf16Codec returns the UTF-16 encoding of enc, without byte order mark
// handling (the mark is read and written separately).
func utf16Codec(enc textEncoding) encoding.Encoding {
	if enc == encUTF16BE {
		return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	}
	return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
}

// encode returns text as f stores it on disk: the same encoding and byte
// order mark. A file that did not exist is written as plain UTF-8.
func (f *textFile) encode(text string) (string, error) {
	switch {
	case f.enc != encUTF8:
		body, err := utf16Codec(f.enc).NewEncoder().String(text)
		if err != nil {
			return "", fmt.Errorf("encode UTF-16: %w", err)
		}
		if f.enc == encUTF16BE {
			return bomUTF16BE + body, nil
		}
		return bomUTF16LE + body, nil
	case f.bom:
		return bomUTF8 + text, nil
	}
	return text, nil
}

// storeText writes text to abs the way before was read: through the editor
// when it offers itself, else atomically to disk in the file's encoding with
// its mode kept.
func storeText(ctx context.Context, env *tools.Env, abs string, before *textFile, text string) error {
	if env.Files != nil {
		return env.Files.WriteTextFile(tools.WithRoots(ctx, env.Roots), abs, text)
	}
	data, err := before.encode(text)
	if err != nil {
		return err
	}
	return tools.WriteLocal(env.Roots, abs, data, 0, true)
}

// eolOf returns the line ending text mostly uses: "\r\n" when CRLF line
// ends outnumber bare LF ones, else "\n".
func eolOf(text string) string {
	crlf := strings.Count(text, "\r\n")
	if crlf > 0 && crlf > strings.Count(text, "\n")-crlf {
		return "\r\n"
	}
	return "\n"
}

// toLF turns CRLF line ends into LF.
func toLF(s string) string {
	if !strings.Contains(s, "\r\n") {
		return s
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

// withEOL gives LF text the line ending eol.
func withEOL(s, eol string) string {
	if eol == "\n" {
		return s
	}
	return strings.ReplaceAll(s, "\n", eol)
}

// adaptEOL gives text the file's line ending eol unless text already says
// which it wants: text written with LF for a CRLF file becomes CRLF; text
// holding any CRLF is left alone.
func adaptEOL(text, eol string) string {
	if eol == "\n" || strings.Contains(text, "\r\n") {
		return text
	}
	return withEOL(text, eol)
}

// keepFinalNewline gives newText a final line ending when oldText had one
// and newText (not empty) lost it: models often drop the last newline
// without meaning to.
func keepFinalNewline(oldText, newText, eol string) string {
	if newText != "" && strings.HasSuffix(oldText, "\n") && !strings.HasSuffix(newText, "\n") {
		return newText + eol
	}
	return newText
}

// lfText is a text with its CRLF line ends turned into LF for matching, and
// the way back to offsets in the original, so an edit changes only the
// bytes it replaces (a file with mixed line endings keeps them).
type lfText struct {
	orig string
	text string
	// crs holds, ascending, the offsets in text of each '\n' that was
	// "\r\n" in orig.
	crs []int
}

// newLFText builds the LF view of orig.
func newLFText(orig string) lfText {
	if !strings.Contains(orig, "\r\n") {
		return lfText{orig: orig, text: orig}
	}
	var b strings.Builder
	b.Grow(len(orig))
	var crs []int
	rest := orig
	for {
		i := strings.Index(rest, "\r\n")
		if i < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:i])
		crs = append(crs, b.Len())
		b.WriteByte('\n')
		rest = rest[i+2:]
	}
	return lfText{orig: orig, text: b.String(), crs: crs}
}

// origOffset maps an offset in text to the same place in orig: a '\n' that
// was "\r\n" starts at its '\r'.
func (t lfText) origOffset(n int) int { return n + sort.SearchInts(t.crs, n) }

// apply replaces the spans (ascending, in text offsets) in orig, giving
// their text the line ending eol.
func (t lfText) apply(spans []span, eol string) string {
	var b strings.Builder
	b.Grow(len(t.orig))
	last := 0
	for _, s := range spans {
		start, end := t.origOffset(s.start), t.origOffset(s.end)
		b.WriteString(t.orig[last:start])
		b.WriteString(withEOL(s.text, eol))
		last = end
	}
	b.WriteString(t.orig[last:])
	return b.String()
}
