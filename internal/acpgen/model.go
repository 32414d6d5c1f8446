package acpgen

import (
	"fmt"
)

// declKind says how a schema definition maps to Go.
type declKind int

const (
	kindSkip       declKind = iota // envelopes and free-form Ext* definitions
	kindStruct                     // an object with fixed properties
	kindAlias                      // a named string or number
	kindEnum                       // constants of a named string or int
	kindRaw                        // an untagged union of JSON primitives
	kindUnion                      // an object union, tagged or untagged
	kindArrayUnion                 // arrays whose item type tells the variant
)

// decl is one Go type to generate.
type decl struct {
	kind     declKind
	name     string // Go name
	schema   string // schema $defs name, "" for inline variant structs
	head     string // first sentence of an inline variant struct's doc
	doc      string // first paragraph of the description
	base     string // underlying Go type of aliases and enums
	fields   []field
	required []string // required JSON keys, used to match untagged variants
	values   []enumValue
	open     bool     // enum: values outside the list are expected
	kinds    []string // raw: JSON kinds accepted
	disc     string   // union: discriminator key, "" when untagged
	variants []variant
	other    bool // union: has a catch-all for unknown tags
}

// field is one struct field.
type field struct {
	name, json, typ, doc string
	omit                 string // "", "omitempty" or "omitzero"
	requiredArray        bool   // marshal nil as []
	elem                 string // element type of a required array
}

// enumValue is one enum constant.
type enumValue struct {
	name, lit, value, doc string
}

// variant is one alternative of a union.
type variant struct {
	field    string // Go field name in the union struct
	tag      string // discriminator value, "" when untagged
	title    string // schema title of an untagged alternative
	typ      string // Go type the field points at (or slice element)
	doc      string
	required []string // JSON keys that identify an untagged alternative
}

// model holds every declaration in schema order.
type model struct {
	doc   *document
	meta  *metaFile
	decls []*decl
	byDef map[string]*decl
	names map[string]string // Go name → origin, to catch clashes
}

// newModel classifies every definition, then fills in fields and variants.
func newModel(doc *document, meta *metaFile) (*model, error) {
	m := &model{doc: doc, meta: meta, byDef: map[string]*decl{}, names: map[string]string{}}
	for _, name := range doc.Defs.keys {
		n, _ := doc.Defs.get(name)
		k, err := classify(n)
		if err != nil {
			return nil, fmt.Errorf("$defs/%s: %w", name, err)
		}
		if k == kindSkip {
			continue
		}
		d := &decl{kind: k, name: goName(name), schema: name, doc: firstParagraph(n.Description)}
		d.base = baseType(k, n)
		if err := m.claim(d.name, name); err != nil {
			return nil, err
		}
		m.byDef[name] = d
		m.decls = append(m.decls, d)
	}
	for _, d := range append([]*decl(nil), m.decls...) {
		n, _ := doc.Defs.get(d.schema)
		if err := m.fill(d, n); err != nil {
			return nil, fmt.Errorf("$defs/%s: %w", d.schema, err)
		}
	}
	return m, nil
}

// claim records a Go name, failing if it is taken.
func (m *model) claim(goName, origin string) error {
	if prev, ok := m.names[goName]; ok {
		return fmt.Errorf("%s from %s and %s: %w", goName, prev, origin, ErrNameClash)
	}
	m.names[goName] = origin
	return nil
}

// fill builds the body of a classified declaration.
func (m *model) fill(d *decl, n *node) error {
	switch d.kind {
	case kindStruct:
		return m.fillStruct(d, n, "")
	case kindAlias:
		return nil
	case kindEnum:
		return m.fillEnum(d, n)
	case kindRaw:
		return m.fillRaw(d, n)
	case kindUnion:
		return m.fillUnion(d, n)
	case kindArrayUnion:
		return m.fillArrayUnion(d, n)
	}
	return nil
}

// classify decides how a definition maps to Go.
func classify(n *node) (declKind, error) {
	branches := n.OneOf
	if len(branches) == 0 {
		branches = n.AnyOf
	}
	isObject := n.Type.has("object") || len(n.Properties.keys) > 0
	switch {
	case n.XDocsIgnore:
		return kindSkip, nil
	case len(branches) > 0 && isObject:
		return kindUnion, nil
	case len(branches) > 0:
		return classifyBranches(branches), nil
	case isObject:
		return kindStruct, nil
	case len(n.Type) == 0 && n.Ref == "" && len(n.AllOf) == 0:
		return kindSkip, nil // free-form: ExtRequest, ExtResponse, ExtNotification
	case primitiveGo(n.Type.primary()) != "":
		return kindAlias, nil
	}
	return kindSkip, fmt.Errorf("type %v: %w", n.Type, ErrUnsupported)
}

// classifyBranches sorts a top-level oneOf/anyOf without own properties.
func classifyBranches(branches []*node) declKind {
	enum, arrays, raw := true, true, true
	for _, b := range branches {
		t := b.Type.primary()
		isConst := len(b.Const) > 0
		isOther := b.Title == "other" || b.Title == "Other"
		if !(t == "string" || t == "integer") || !(isConst || isOther) {
			enum = false
		}
		if t != "array" {
			arrays = false
		}
		if b.Ref != "" || len(b.AllOf) > 0 || len(b.Properties.keys) > 0 || t == "object" || isConst {
			raw = false
		}
		if t == "array" && (b.Items == nil || b.Items.Ref != "") {
			raw = false
		}
	}
	switch {
	case enum:
		return kindEnum
	case arrays:
		return kindArrayUnion
	case raw:
		return kindRaw
	}
	return kindUnion
}

// baseType is the underlying Go type of an alias or enum, known before any
// field is built so that references can tell strings from numbers.
func baseType(k declKind, n *node) string {
	switch k {
	case kindAlias:
		return primitiveGo(n.Type.primary())
	case kindEnum:
		branches := n.OneOf
		if len(branches) == 0 {
			branches = n.AnyOf
		}
		return primitiveGo(branches[0].Type.primary())
	}
	return ""
}

// primitiveGo maps a JSON primitive type to Go, "" for non-primitives.
func primitiveGo(t string) string {
	switch t {
	case "string":
		return "string"
	case "integer":
		return "int"
	case "number":
		return "float64"
	case "boolean":
		return "bool"
	}
	return ""
}

// fillEnum collects the constants of a string or integer enum.
func (m *model) fillEnum(d *decl, n *node) error {
	branches := n.OneOf
	if len(branches) == 0 {
		branches = n.AnyOf
	}
	for _, b := range branches {
		if len(b.Const) == 0 {
			d.open = true
			continue
		}
		v := enumValue{lit: string(b.Const), doc: firstParagraph(b.Description)}
		if s, ok := b.constString(); ok {
			v.value, v.name = s, d.name+goName(s)
		} else {
			v.value, v.name = string(b.Const), d.name+goName(b.Title)
		}
		if err := m.claim(v.name, d.schema+" value "+v.value); err != nil {
			return err
		}
		d.values = append(d.values, v)
	}
	return nil
}

// fillRaw records which JSON kinds an untagged primitive union accepts.
func (m *model) fillRaw(d *decl, n *node) error {
	for _, b := range append(append([]*node(nil), n.OneOf...), n.AnyOf...) {
		t := b.Type.primary()
		if t == "" {
			t = "null"
		}
		d.kinds = append(d.kinds, t)
	}
	return nil
}
