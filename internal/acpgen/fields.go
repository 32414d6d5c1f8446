package acpgen

import (
	"encoding/json"
	"fmt"
)

// fillStruct turns the properties of an object node into fields. skip names
// a property left out (a union's discriminator).
func (m *model) fillStruct(d *decl, n *node, skip string) error {
	for _, key := range n.Properties.keys {
		if key == skip {
			continue
		}
		p, _ := n.Properties.get(key)
		f, err := m.fieldFor(d.name, key, p, n.isRequired(key))
		if err != nil {
			return fmt.Errorf("property %s: %w", key, err)
		}
		for _, prev := range d.fields {
			if prev.name == f.name {
				return fmt.Errorf("%s.%s twice: %w", d.name, f.name, ErrNameClash)
			}
		}
		d.fields = append(d.fields, f)
	}
	for _, r := range n.Required {
		if r != skip {
			d.required = append(d.required, r)
		}
	}
	return nil
}

// fieldFor maps one property to a Go field. Required fields are never
// omitted; optional ones follow the rules in the acp package doc.
func (m *model) fieldFor(owner, key string, p *node, required bool) (field, error) {
	f := field{name: goName(key), json: key, doc: firstParagraph(p.Description)}
	if key == "_meta" {
		f.doc = "Meta carries _meta extension data; ACP reserves it for custom metadata that " +
			"the protocol itself never interprets."
		f.typ, f.omit = "map[string]any", "omitempty"
		return f, nil
	}
	if ref, nullable := p.singleRef(); ref != "" {
		return m.refField(f, ref, nullable, required)
	}
	if len(p.Type) == 0 && len(p.AnyOf) == 0 && len(p.OneOf) == 0 && len(p.AllOf) == 0 {
		f.typ, f.omit = "json.RawMessage", "omitempty" // free-form JSON
		return f, nil
	}
	switch t := p.Type.primary(); t {
	case "string", "integer", "number", "boolean":
		return scalarField(f, owner, p, required), nil
	case "array":
		elem, err := m.valueType(p.Items)
		if err != nil {
			return f, err
		}
		f.typ = "[]" + elem
		if required {
			f.requiredArray, f.elem = true, elem
		} else {
			f.omit = "omitzero"
		}
		return f, nil
	case "object":
		elem, err := m.mapElem(p)
		if err != nil {
			return f, err
		}
		f.typ = "map[string]" + elem
		if !required {
			f.omit = "omitzero"
		}
		return f, nil
	}
	return f, fmt.Errorf("type %v: %w", p.Type, ErrUnsupported)
}

// refField maps a property that refers to another definition.
func (m *model) refField(f field, ref string, nullable, required bool) (field, error) {
	d := m.byDef[ref]
	if d == nil {
		return f, fmt.Errorf("reference to skipped definition %s: %w", ref, ErrUnsupported)
	}
	f.typ = d.name
	switch {
	case required:
	case d.kind == kindStruct && !nullable:
		f.omit = "omitzero" // an absent object with defaults reads as its zero value
	case d.kind == kindRaw:
		f.omit = "omitzero"
	case (d.kind == kindEnum || d.kind == kindAlias) && d.base == "string":
		f.omit = "omitempty"
	default:
		f.typ, f.omit = "*"+d.name, "omitempty"
	}
	return f, nil
}

// scalarField maps an optional or required primitive. Optional numbers and
// booleans without a false default become pointers, because zero and absent
// differ for them; optional strings stay plain unless pointerString says
// the empty string means something.
func scalarField(f field, owner string, p *node, required bool) field {
	f.typ = primitiveGo(p.Type.primary())
	switch {
	case required:
	case f.typ == "string" && !pointerString(owner, f.json):
		f.omit = "omitempty"
	case f.typ == "bool" && p.defaultIsFalse():
		f.omit = "omitempty"
	default:
		f.typ, f.omit = "*"+f.typ, "omitempty"
	}
	return f
}

// pointerString lists optional strings whose empty value differs from
// absence: Diff.oldText "" is an empty existing file, absent a new file.
func pointerString(owner, key string) bool {
	return owner == "Diff" && key == "oldText"
}

// valueType is the Go type of an array item or map value.
func (m *model) valueType(n *node) (string, error) {
	if n == nil {
		return "json.RawMessage", nil
	}
	if ref, _ := n.singleRef(); ref != "" {
		d := m.byDef[ref]
		if d == nil {
			return "", fmt.Errorf("reference to skipped definition %s: %w", ref, ErrUnsupported)
		}
		return d.name, nil
	}
	if t := primitiveGo(n.Type.primary()); t != "" {
		return t, nil
	}
	return "", fmt.Errorf("item type %v: %w", n.Type, ErrUnsupported)
}

// mapElem is the value type of an object with additionalProperties.
func (m *model) mapElem(p *node) (string, error) {
	ap := p.AdditionalProperties
	if len(ap) == 0 || string(ap) == "true" {
		return "any", nil
	}
	var sub node
	if err := json.Unmarshal(ap, &sub); err != nil {
		return "", fmt.Errorf("additionalProperties: %w: %w", ErrSchema, err)
	}
	return m.valueType(&sub)
}
