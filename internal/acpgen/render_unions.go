package acpgen

import (
	"fmt"
	"strings"
)

// renderUnions writes unions with their codecs, inline variant structs and
// raw (untagged primitive) unions, in schema order.
func renderUnions(m *model) string {
	var b strings.Builder
	for _, d := range m.decls {
		switch {
		case d.kind == kindUnion:
			renderUnion(&b, d)
		case d.kind == kindArrayUnion:
			renderArrayUnion(&b, d)
		case d.kind == kindRaw:
			renderRaw(&b, d)
		case d.kind == kindStruct && d.head != "":
			renderStruct(&b, d)
		}
	}
	return b.String()
}

// renderUnion writes an object union: struct, variant, Kind, MarshalJSON
// and UnmarshalJSON.
func renderUnion(b *strings.Builder, d *decl) {
	b.WriteString(typeDoc(d))
	b.WriteString("//\n")
	b.WriteString(comment("", unionRule(d)))
	fmt.Fprintf(b, "type %s struct {\n", d.name)
	renderFields(b, d.fields)
	for _, v := range d.variants {
		b.WriteString(comment("\t", variantDoc(d, v)))
		fmt.Fprintf(b, "\t%s *%s `json:\"-\"`\n", v.field, v.typ)
	}
	if d.other {
		b.WriteString(comment("\t", "Other holds a variant this schema does not name: the whole JSON object "+
			"as received. It is written back verbatim, base fields included."))
		b.WriteString("\tOther json.RawMessage `json:\"-\"`\n")
	}
	b.WriteString("}\n\n")
	renderVariantFunc(b, d)
	renderKind(b, d)
	renderUnionMarshal(b, d)
	renderUnionUnmarshal(b, d)
}

// unionRule is the sentence that says how a union reads and writes.
func unionRule(d *decl) string {
	s := "Set exactly one variant field. "
	switch {
	case d.disc != "":
		s += fmt.Sprintf("On the wire the variant's members sit beside the %q member that names it", d.disc)
		if untagged := untaggedTitles(d); len(untagged) > 0 {
			s += fmt.Sprintf("; %s is written without %q and read when %q is absent",
				strings.Join(untagged, ", "), d.disc, d.disc)
		}
		s += ". "
	default:
		s += "On the wire the variant's members are written as they are; decoding picks the first " +
			"variant whose required members are all present. "
	}
	if d.other {
		return s + "Decoding keeps an unknown variant in Other."
	}
	return s + "Decoding an unknown variant fails with ErrUnknownVariant."
}

// untaggedTitles lists the untagged variants of a tagged union.
func untaggedTitles(d *decl) []string {
	var out []string
	for _, v := range d.variants {
		if v.tag == "" {
			out = append(out, v.field)
		}
	}
	return out
}

// variantDoc documents one variant field.
func variantDoc(d *decl, v variant) string {
	var s string
	switch {
	case v.tag != "":
		s = fmt.Sprintf("%s is the %q variant.", v.field, v.tag)
	default:
		s = fmt.Sprintf("%s is the untagged %q variant.", v.field, v.title)
	}
	if v.doc != "" {
		s += " " + v.doc
	}
	return s
}

// renderVariantFunc writes variant(): the set variant's tag, kind, value
// and the number of variants set.
func renderVariantFunc(b *strings.Builder, d *decl) {
	fmt.Fprintf(b, "// variant returns the tag to write, the kind, the value and how many variants are set.\n")
	fmt.Fprintf(b, "func (u %s) variant() (tag, kind string, v any, n int) {\n", d.name)
	for _, v := range d.variants {
		fmt.Fprintf(b, "\tif u.%s != nil {\n", v.field)
		fmt.Fprintf(b, "\t\ttag, kind, v, n = %q, %q, u.%s, n+1\n\t}\n", v.tag, orTitle(v), v.field)
	}
	if d.other {
		fmt.Fprintf(b, "\tif u.Other != nil {\n\t\tkind, v, n = rawTag(u.Other, %q), u.Other, n+1\n\t}\n", d.disc)
	}
	b.WriteString("\treturn tag, kind, v, n\n}\n\n")
}

// renderKind writes the exported Kind method.
func renderKind(b *strings.Builder, d *decl) {
	what := "the schema title of the set variant"
	switch {
	case d.disc != "" && len(untaggedTitles(d)) > 0:
		what = fmt.Sprintf("the %q value of the set variant (the schema title for an untagged one)", d.disc)
	case d.disc != "":
		what = fmt.Sprintf("the %q value of the set variant", d.disc)
	}
	b.WriteString(comment("", fmt.Sprintf("Kind returns %s, or \"\" when none is set.", what)))
	fmt.Fprintf(b, "func (u %s) Kind() string {\n\t_, kind, _, _ := u.variant()\n\treturn kind\n}\n\n", d.name)
}

// renderUnionMarshal writes MarshalJSON for an object union.
func renderUnionMarshal(b *strings.Builder, d *decl) {
	fmt.Fprintf(b, "// MarshalJSON writes the set variant; it fails with ErrVariantCount unless exactly one is set.\n")
	fmt.Fprintf(b, "func (u %s) MarshalJSON() ([]byte, error) {\n", d.name)
	fmt.Fprintf(b, "\ttag, _, v, n := u.variant()\n\tif n != 1 {\n\t\treturn nil, variantCountError(%q, n)\n\t}\n", d.name)
	if d.other {
		b.WriteString("\tif raw, ok := v.(json.RawMessage); ok {\n\t\treturn raw, nil\n\t}\n")
	}
	if len(d.fields) == 0 {
		fmt.Fprintf(b, "\treturn joinMembers(%q, tag, v)\n}\n\n", d.disc)
		return
	}
	fmt.Fprintf(b, "\ttype plain %s\n\tbase := plain(u)\n", d.name)
	renderArrayFixes(b, "base", d.fields)
	fmt.Fprintf(b, "\treturn joinMembers(%q, tag, base, v)\n}\n\n", d.disc)
}

// renderUnionUnmarshal writes UnmarshalJSON for an object union.
func renderUnionUnmarshal(b *strings.Builder, d *decl) {
	what := "the variant the JSON names"
	if d.disc == "" {
		what = "the first variant whose required members are present"
	}
	if len(d.fields) > 0 {
		what = "the base fields and " + what
	}
	b.WriteString(comment("", "UnmarshalJSON reads "+what+". JSON null leaves u unchanged."))
	fmt.Fprintf(b, "func (u *%s) UnmarshalJSON(data []byte) error {\n", d.name)
	b.WriteString("\tif isNull(data) {\n\t\treturn nil\n\t}\n")
	fmt.Fprintf(b, "\tobj, err := members(data)\n\tif err != nil {\n\t\treturn fmt.Errorf(\"acp: %s: %%w\", err)\n\t}\n", d.name)
	fmt.Fprintf(b, "\t*u = %s{}\n", d.name)
	if len(d.fields) > 0 {
		fmt.Fprintf(b, "\ttype plain %s\n\tif err := json.Unmarshal(data, (*plain)(u)); err != nil {\n", d.name)
		fmt.Fprintf(b, "\t\treturn fmt.Errorf(\"acp: %s: %%w\", err)\n\t}\n", d.name)
	}
	if d.disc != "" {
		fmt.Fprintf(b, "\ttag, tagged, err := stringMember(obj, %q)\n", d.disc)
		fmt.Fprintf(b, "\tif err != nil {\n\t\treturn fmt.Errorf(\"acp: %s: %%w\", err)\n\t}\n", d.name)
	}
	b.WriteString("\tswitch {\n")
	for _, v := range d.variants {
		fmt.Fprintf(b, "\tcase %s:\n", variantCase(d, v))
		fmt.Fprintf(b, "\t\treturn decodeVariant(data, &u.%s, %q, %q)\n", v.field, d.name, orTitle(v))
	}
	if d.other {
		b.WriteString("\tdefault:\n\t\tu.Other = append(json.RawMessage(nil), data...)\n\t\treturn nil\n")
	}
	b.WriteString("\t}\n")
	if !d.other {
		if d.disc != "" {
			fmt.Fprintf(b, "\treturn unknownVariantError(%q, %q, tag)\n}\n\n", d.name, d.disc)
		} else {
			fmt.Fprintf(b, "\treturn unknownVariantError(%q, \"\", \"\")\n}\n\n", d.name)
		}
		return
	}
	b.WriteString("}\n\n")
}

// variantCase is the switch condition that selects variant v.
func variantCase(d *decl, v variant) string {
	keys := quoteAll(v.required)
	switch {
	case v.tag != "":
		return fmt.Sprintf("tagged && tag == %q", v.tag)
	case d.disc != "" && len(untaggedTitles(d)) == 1:
		return fmt.Sprintf("!tagged || tag == %q", v.title)
	case d.disc != "":
		return fmt.Sprintf("!tagged && hasMembers(obj%s)", keys)
	}
	return fmt.Sprintf("hasMembers(obj%s)", keys)
}

// quoteAll renders keys as extra Go string arguments: `, "a", "b"`.
func quoteAll(keys []string) string {
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, ", %q", k)
	}
	return b.String()
}
