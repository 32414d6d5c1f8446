package acpgen

import (
	"fmt"
	"strings"
)

// renderRaw writes an untagged union of JSON primitives as a comparable
// struct holding the compact JSON text.
func renderRaw(b *strings.Builder, d *decl) {
	b.WriteString(typeDoc(d))
	b.WriteString("//\n")
	b.WriteString(comment("", fmt.Sprintf("It holds the value as compact JSON text (one of: %s), so it is "+
		"comparable and can key a map. The zero value writes as JSON null.", strings.Join(d.kinds, ", "))))
	fmt.Fprintf(b, "type %s struct {\n\traw string\n}\n\n", d.name)
	mask := kindMask(d.kinds)
	b.WriteString(comment("", fmt.Sprintf("New%s encodes v, which must marshal to one of: %s.",
		d.name, strings.Join(d.kinds, ", "))))
	fmt.Fprintf(b, "func New%s(v any) (%s, error) {\n\tvar x %s\n", d.name, d.name, d.name)
	b.WriteString("\tdata, err := json.Marshal(v)\n\tif err != nil {\n")
	fmt.Fprintf(b, "\t\treturn x, fmt.Errorf(\"acp: %s: %%w\", err)\n\t}\n", d.name)
	b.WriteString("\terr = x.UnmarshalJSON(data)\n\treturn x, err\n}\n\n")
	b.WriteString("// Raw returns the held JSON value; the zero value gives null.\n")
	fmt.Fprintf(b, "func (x %s) Raw() json.RawMessage {\n", d.name)
	b.WriteString("\tif x.raw == \"\" {\n\t\treturn json.RawMessage(\"null\")\n\t}\n\treturn json.RawMessage(x.raw)\n}\n\n")
	b.WriteString("// String returns the held JSON text.\n")
	fmt.Fprintf(b, "func (x %s) String() string {\n\treturn string(x.Raw())\n}\n\n", d.name)
	b.WriteString("// MarshalJSON writes the held JSON value.\n")
	fmt.Fprintf(b, "func (x %s) MarshalJSON() ([]byte, error) {\n\treturn x.Raw(), nil\n}\n\n", d.name)
	b.WriteString(comment("", "UnmarshalJSON keeps data when it is of an accepted kind and fails with "+
		"ErrRawKind otherwise. JSON null leaves x unchanged unless null is accepted."))
	fmt.Fprintf(b, "func (x *%s) UnmarshalJSON(data []byte) error {\n", d.name)
	fmt.Fprintf(b, "\traw, err := rawOfKinds(data, %s, %q)\n", mask, d.name)
	b.WriteString("\tif err != nil {\n\t\treturn err\n\t}\n\tif raw != \"\" {\n\t\tx.raw = raw\n\t}\n\treturn nil\n}\n\n")
}

// kindMask renders the jsonKinds expression for a list of schema types.
func kindMask(kinds []string) string {
	var parts []string
	for _, k := range kinds {
		parts = append(parts, "json"+goName(k))
	}
	return strings.Join(parts, "|")
}

// renderArrayUnion writes a union of arrays told apart by their items.
func renderArrayUnion(b *strings.Builder, d *decl) {
	b.WriteString(typeDoc(d))
	b.WriteString("//\n")
	b.WriteString(comment("", "Set at most one variant field; with none set it writes []. Decoding looks at "+
		"the first element to pick the variant, and reads [] as an empty "+d.variants[0].field+"."))
	fmt.Fprintf(b, "type %s struct {\n", d.name)
	for _, v := range d.variants {
		b.WriteString(comment("\t", fmt.Sprintf("%s is the %q variant. %s", v.field, v.title, v.doc)))
		fmt.Fprintf(b, "\t%s []%s\n", v.field, v.typ)
	}
	b.WriteString("}\n\n")
	b.WriteString("// variant returns the kind and value of the set variant and how many are set.\n")
	fmt.Fprintf(b, "func (u %s) variant() (kind string, v any, n int) {\n", d.name)
	for _, v := range d.variants {
		fmt.Fprintf(b, "\tif u.%s != nil {\n\t\tkind, v, n = %q, u.%s, n+1\n\t}\n", v.field, v.title, v.field)
	}
	b.WriteString("\treturn kind, v, n\n}\n\n")
	b.WriteString("// Kind returns the schema title of the set variant, or \"\" when none is set.\n")
	fmt.Fprintf(b, "func (u %s) Kind() string {\n\tkind, _, _ := u.variant()\n\treturn kind\n}\n\n", d.name)
	b.WriteString("// MarshalJSON writes the set variant's array; it fails with ErrVariantCount when several are set.\n")
	fmt.Fprintf(b, "func (u %s) MarshalJSON() ([]byte, error) {\n\t_, v, n := u.variant()\n", d.name)
	fmt.Fprintf(b, "\tswitch {\n\tcase n == 0:\n\t\treturn []byte(\"[]\"), nil\n\tcase n > 1:\n")
	fmt.Fprintf(b, "\t\treturn nil, variantCountError(%q, n)\n\t}\n\treturn json.Marshal(v)\n}\n\n", d.name)
	renderArrayUnionUnmarshal(b, d)
}

// renderArrayUnionUnmarshal writes UnmarshalJSON for an array union.
func renderArrayUnionUnmarshal(b *strings.Builder, d *decl) {
	b.WriteString("// UnmarshalJSON picks the variant from the first element's members. JSON null leaves u unchanged.\n")
	fmt.Fprintf(b, "func (u *%s) UnmarshalJSON(data []byte) error {\n", d.name)
	b.WriteString("\tif isNull(data) {\n\t\treturn nil\n\t}\n\tfirst, empty, err := firstElement(data)\n")
	fmt.Fprintf(b, "\tif err != nil {\n\t\treturn fmt.Errorf(\"acp: %s: %%w\", err)\n\t}\n", d.name)
	fmt.Fprintf(b, "\t*u = %s{}\n\tswitch {\n\tcase empty:\n", d.name)
	fmt.Fprintf(b, "\t\tu.%s = []%s{}\n\t\treturn nil\n", d.variants[0].field, d.variants[0].typ)
	for _, v := range d.variants {
		fmt.Fprintf(b, "\tcase hasMembers(first%s):\n", quoteAll(v.required))
		fmt.Fprintf(b, "\t\treturn decodeSlice(data, &u.%s, %q, %q)\n", v.field, d.name, v.title)
	}
	fmt.Fprintf(b, "\t}\n\treturn unknownVariantError(%q, \"\", \"\")\n}\n\n", d.name)
}
