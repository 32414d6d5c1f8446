package acpgen

import (
	"strings"
)

// commentWidth is where doc comments wrap.
const commentWidth = 96

// firstParagraph returns the first paragraph of a schema description with
// its lines joined, or "" when there is none.
func firstParagraph(desc string) string {
	desc = strings.TrimSpace(strings.ReplaceAll(desc, "\r\n", "\n"))
	if i := strings.Index(desc, "\n\n"); i >= 0 {
		desc = desc[:i]
	}
	desc = strings.Join(strings.Fields(desc), " ")
	if desc != "" && !strings.ContainsAny(desc[len(desc)-1:], ".!?:") {
		desc += "." // a lone unpunctuated line would turn into a doc heading
	}
	return desc
}

// comment renders text as // lines indented by indent, wrapped at
// commentWidth. Empty text renders nothing.
func comment(indent, text string) string {
	if text == "" {
		return ""
	}
	var b strings.Builder
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(indent)+3+len(line)+1+len(w) > commentWidth {
			b.WriteString(indent + "// " + line + "\n")
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	b.WriteString(indent + "// " + line + "\n")
	return b.String()
}

// typeDoc is the doc comment of a generated type: it starts with the Go
// name, names the schema definition, then quotes its description.
func typeDoc(d *decl) string {
	var head string
	switch {
	case d.head != "":
		head = d.head
	default:
		head = d.name + " is the ACP schema's " + d.schema + "."
	}
	if d.doc == "" {
		return comment("", head)
	}
	return comment("", head) + "//\n" + comment("", d.doc)
}
