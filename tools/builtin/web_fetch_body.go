package builtin

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"companion/tools"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
)

// What a fetched body is, for the model.
const (
	bodyHTML  = "html"
	bodyText  = "text"
	bodyOther = "other"
)

// fetchBody is a response body made ready for the model.
type fetchBody struct {
	// mediaType is the type the server declared, or the sniffed one when it
	// declared none (or application/octet-stream).
	mediaType string
	kind      string
	// title is an HTML page's <title>.
	title string
	// text is the page as text (Markdown for HTML), or a short description
	// of a body that is not text.
	text string
	// read counts the body bytes read; truncated is set when the body was
	// longer than the read limit.
	read      int64
	truncated bool
}

// describe says what the body is, for the Content-Type header line.
func (b fetchBody) describe() string {
	switch b.kind {
	case bodyHTML:
		return b.mediaType + " (converted to Markdown)"
	case bodyOther:
		return b.mediaType + " (not text)"
	}
	return b.mediaType
}

// readFetchBody reads up to limit bytes of resp's body and turns them into
// text: HTML into Markdown, text and JSON as they are, anything else into a
// one-line description without reading it further.
func readFetchBody(ctx context.Context, resp *http.Response, limit int64) (fetchBody, error) {
	br := bufio.NewReaderSize(io.LimitReader(resp.Body, limit+1), 4<<10)
	head, err := br.Peek(512)
	if err != nil && !errors.Is(err, io.EOF) {
		return fetchBody{}, err
	}
	ct := resp.Header.Get("Content-Type")
	mt, params, perr := mime.ParseMediaType(ct)
	if perr != nil || mt == "" || mt == "application/octet-stream" {
		ct = http.DetectContentType(head)
		mt, params, _ = mime.ParseMediaType(ct)
	}
	b := fetchBody{mediaType: mt, kind: bodyKind(mt)}
	if b.kind == bodyOther {
		b.text = describeBinary(mt, resp.ContentLength)
		return b, nil
	}
	data, err := io.ReadAll(br)
	if err != nil {
		return fetchBody{}, err
	}
	if int64(len(data)) > limit {
		data, b.truncated = data[:limit], true
	}
	b.read = int64(len(data))
	if looksBinary(data[:min(len(data), sniffLen)]) {
		b.kind, b.text = bodyOther, describeBinary(mt, resp.ContentLength)
		return b, nil
	}
	if b.kind == bodyHTML {
		b.title, b.text, err = htmlToMarkdown(ctx, data, ct, resp.Request.URL.String())
		return b, err
	}
	b.text = decodeCharset(data, params["charset"])
	return b, nil
}

// bodyKind sorts a media type into HTML, text (passed through) or other.
func bodyKind(mt string) string {
	switch {
	case mt == "text/html", mt == "application/xhtml+xml":
		return bodyHTML
	case strings.HasPrefix(mt, "text/"),
		strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"), strings.HasSuffix(mt, "+yaml"):
		return bodyText
	}
	switch mt {
	case "application/json", "application/xml", "application/javascript", "application/x-javascript",
		"application/ecmascript", "application/yaml", "application/x-yaml", "application/toml",
		"application/x-ndjson", "application/jsonl", "application/graphql", "application/sql",
		"application/x-sh", "application/x-tex", "application/rtf":
		return bodyText
	}
	return bodyOther
}

// describeBinary is what the model reads instead of a body that is not text.
func describeBinary(mt string, size int64) string {
	what := "a file"
	switch {
	case strings.HasPrefix(mt, "image/"):
		what = "an image"
	case strings.HasPrefix(mt, "audio/"):
		what = "audio"
	case strings.HasPrefix(mt, "video/"):
		what = "a video"
	case mt == "application/pdf":
		what = "a PDF document"
	}
	n := "of unknown size"
	if size >= 0 {
		n = tools.FormatSize(size)
	}
	return fmt.Sprintf("The response is %s (%s, %s), not text, so its content is not shown. web_fetch returns text only.",
		what, mt, n)
}

// decodeCharset converts text in the named charset to UTF-8; unknown or
// missing charsets leave it as it is.
func decodeCharset(data []byte, cs string) string {
	if cs == "" || strings.EqualFold(cs, "utf-8") || strings.EqualFold(cs, "utf8") {
		return string(data)
	}
	r, err := charset.NewReaderLabel(cs, bytes.NewReader(data))
	if err != nil {
		return string(data)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return string(data)
	}
	return string(out)
}

// htmlToMarkdown parses an HTML page (decoding its charset from the
// Content-Type or its <meta> tags) and converts it to Markdown, with links
// made absolute against pageURL. Scripts, styles and other invisible parts
// are dropped.
func htmlToMarkdown(ctx context.Context, data []byte, contentType, pageURL string) (title, md string, err error) {
	r, err := charset.NewReader(bytes.NewReader(data), contentType)
	if err != nil {
		r = bytes.NewReader(data)
	}
	doc, err := html.Parse(r)
	if err != nil {
		return "", "", fmt.Errorf("parse HTML: %w", err)
	}
	title = strings.Join(strings.Fields(findTitle(doc)), " ")
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(), table.NewTablePlugin(),
	))
	out, err := conv.ConvertNode(doc, converter.WithContext(ctx), converter.WithDomain(pageURL))
	if err != nil {
		return "", "", fmt.Errorf("convert HTML: %w", err)
	}
	return title, strings.TrimSpace(string(out)), nil
}

// findTitle returns the text of the first <title> element, or "".
func findTitle(n *html.Node) string {
	if n.Type == html.ElementNode && n.DataAtom == atom.Title {
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				b.WriteString(c.Data)
			}
		}
		return b.String()
	}
	if n.Type == html.ElementNode && n.DataAtom == atom.Svg {
		return "" // an SVG's <title> is not the page's
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if t := findTitle(c); t != "" {
			return t
		}
	}
	return ""
}
