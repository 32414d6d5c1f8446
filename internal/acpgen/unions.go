package acpgen

import (
	"fmt"
)

// fillUnion builds an object union: base fields from the definition's own
// properties, one variant per oneOf/anyOf branch.
func (m *model) fillUnion(d *decl, n *node) error {
	branches := n.OneOf
	if len(branches) == 0 {
		branches = n.AnyOf
	}
	if err := m.fillStruct(d, n, ""); err != nil {
		return err
	}
	disc, err := discriminator(branches)
	if err != nil {
		return err
	}
	d.disc = disc
	for i, b := range branches {
		if b.Title == "other" && b.Not != nil {
			d.other = true
			continue
		}
		v, err := m.branchVariant(d, b, disc)
		if err != nil {
			return fmt.Errorf("branch %d: %w", i, err)
		}
		if err := checkVariantName(d, v.field); err != nil {
			return err
		}
		d.variants = append(d.variants, v)
	}
	return nil
}

// discriminator finds the property whose const tells the branches apart.
func discriminator(branches []*node) (string, error) {
	disc := ""
	for _, b := range branches {
		for _, key := range b.Properties.keys {
			p, _ := b.Properties.get(key)
			if _, ok := p.constString(); !ok {
				continue
			}
			if disc != "" && disc != key {
				return "", fmt.Errorf("two discriminators %s and %s: %w", disc, key, ErrUnsupported)
			}
			disc = key
		}
	}
	return disc, nil
}

// branchVariant maps one branch. A branch that only adds the discriminator
// to a referenced definition points at that definition's type; a branch
// with properties of its own gets an inline struct named union+variant.
func (m *model) branchVariant(d *decl, b *node, disc string) (variant, error) {
	v := variant{doc: firstParagraph(b.Description)}
	if disc != "" {
		if p, ok := b.Properties.get(disc); ok {
			v.tag, _ = p.constString()
		}
	}
	if v.tag != "" {
		v.field = goName(v.tag)
	} else {
		if b.Title == "" {
			return v, fmt.Errorf("untagged branch without a title: %w", ErrUnsupported)
		}
		v.title, v.field = b.Title, goName(b.Title)
	}
	ref, _ := b.singleRef()
	own := 0
	for _, key := range b.Properties.keys {
		if key != disc {
			own++
		}
	}
	if ref != "" && own == 0 {
		target := m.byDef[ref]
		if target == nil {
			return v, fmt.Errorf("reference to skipped definition %s: %w", ref, ErrUnsupported)
		}
		v.typ = target.name
		refNode, _ := m.doc.Defs.get(ref)
		v.required = refNode.Required
		return v, nil
	}
	if ref != "" {
		return v, fmt.Errorf("branch with both a reference and properties: %w", ErrUnsupported)
	}
	inline := &decl{kind: kindStruct, name: d.name + v.field, doc: v.doc}
	inline.head = fmt.Sprintf("%s holds the members of the %q variant of %s.", inline.name, orTitle(v), d.name)
	if err := m.claim(inline.name, d.schema+" variant "+v.field); err != nil {
		return v, err
	}
	if err := m.fillStruct(inline, b, disc); err != nil {
		return v, err
	}
	m.decls = append(m.decls, inline)
	v.typ, v.required = inline.name, inline.required
	return v, nil
}

// checkVariantName rejects a variant field that clashes with a base field
// or a generated method.
func checkVariantName(d *decl, name string) error {
	if name == "Other" || name == "Kind" {
		return fmt.Errorf("%s.%s is reserved: %w", d.name, name, ErrNameClash)
	}
	for _, f := range d.fields {
		if f.name == name {
			return fmt.Errorf("%s.%s is both a field and a variant: %w", d.name, name, ErrNameClash)
		}
	}
	for _, v := range d.variants {
		if v.field == name {
			return fmt.Errorf("%s.%s twice: %w", d.name, name, ErrNameClash)
		}
	}
	return nil
}

// fillArrayUnion builds a union of arrays told apart by their items.
func (m *model) fillArrayUnion(d *decl, n *node) error {
	branches := n.OneOf
	if len(branches) == 0 {
		branches = n.AnyOf
	}
	for _, b := range branches {
		elem, err := m.valueType(b.Items)
		if err != nil {
			return err
		}
		v := variant{field: goName(b.Title), title: b.Title, typ: elem, doc: firstParagraph(b.Description)}
		if ref, _ := b.Items.singleRef(); ref != "" {
			refNode, _ := m.doc.Defs.get(ref)
			v.required = refNode.Required
		}
		if err := checkVariantName(d, v.field); err != nil {
			return err
		}
		d.variants = append(d.variants, v)
	}
	return nil
}

// orTitle is a variant's tag, or its schema title when it has none.
func orTitle(v variant) string {
	if v.tag != "" {
		return v.tag
	}
	return v.title
}
