package acpgen

import (
	"fmt"
	"strings"
)

// renderTypes writes aliases, enums and plain structs, in schema order.
func renderTypes(m *model) string {
	var b strings.Builder
	for _, d := range m.decls {
		switch {
		case d.kind == kindAlias:
			renderAlias(&b, d)
		case d.kind == kindEnum:
			renderEnum(&b, d)
		case d.kind == kindStruct && d.head == "":
			renderStruct(&b, d)
		}
	}
	return b.String()
}

// renderAlias writes a named primitive.
func renderAlias(b *strings.Builder, d *decl) {
	fmt.Fprintf(b, "%stype %s %s\n\n", typeDoc(d), d.name, d.base)
}

// renderEnum writes a named string or int and its constants.
func renderEnum(b *strings.Builder, d *decl) {
	b.WriteString(typeDoc(d))
	b.WriteString("//\n")
	if d.open {
		b.WriteString(comment("", "The list of values is open: other values (custom ones, by convention "+
			"starting with an underscore) are valid and kept as they are."))
	} else {
		b.WriteString(comment("", "The list of values is closed, but decoding keeps an unknown value as it is "+
			"so that lenient readers can fall back to a default."))
	}
	fmt.Fprintf(b, "type %s %s\n\n", d.name, d.base)
	fmt.Fprintf(b, "// Values of %s.\nconst (\n", d.name)
	for _, v := range d.values {
		head := fmt.Sprintf("%s is %s.", v.name, v.lit)
		if v.doc != "" {
			head = fmt.Sprintf("%s is %s: %s", v.name, v.lit, v.doc)
		}
		b.WriteString(comment("\t", head))
		fmt.Fprintf(b, "\t%s %s = %s\n", v.name, d.name, v.lit)
	}
	b.WriteString(")\n\n")
}

// renderStruct writes a struct and, when it has required arrays, a
// MarshalJSON that writes them as [] rather than null.
func renderStruct(b *strings.Builder, d *decl) {
	b.WriteString(typeDoc(d))
	fmt.Fprintf(b, "type %s struct {\n", d.name)
	renderFields(b, d.fields)
	b.WriteString("}\n\n")
	if !hasRequiredArray(d.fields) {
		return
	}
	fmt.Fprintf(b, "// MarshalJSON writes %s with nil required arrays as [].\n", d.name)
	fmt.Fprintf(b, "func (x %s) MarshalJSON() ([]byte, error) {\n", d.name)
	fmt.Fprintf(b, "\ttype plain %s\n\tp := plain(x)\n", d.name)
	renderArrayFixes(b, "p", d.fields)
	b.WriteString("\treturn json.Marshal(p)\n}\n\n")
}

// renderFields writes struct fields with their doc comments and tags.
func renderFields(b *strings.Builder, fields []field) {
	for _, f := range fields {
		b.WriteString(comment("\t", f.doc))
		tag := f.json
		if f.omit != "" {
			tag += "," + f.omit
		}
		fmt.Fprintf(b, "\t%s %s `json:%q`\n", f.name, f.typ, tag)
	}
}

// renderArrayFixes replaces nil required arrays of the struct value v.
func renderArrayFixes(b *strings.Builder, v string, fields []field) {
	for _, f := range fields {
		if f.requiredArray {
			fmt.Fprintf(b, "\tif %s.%s == nil {\n\t\t%s.%s = []%s{}\n\t}\n", v, f.name, v, f.name, f.elem)
		}
	}
}

// hasRequiredArray reports whether any field is a required array.
func hasRequiredArray(fields []field) bool {
	for _, f := range fields {
		if f.requiredArray {
			return true
		}
	}
	return false
}
