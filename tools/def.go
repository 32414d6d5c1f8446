package tools

import "encoding/json"

// Def describes a tool by its parts; Define turns it into a Tool. P is what
// Prepare takes: usually a parameter struct (see Bind for its tags), from
// which the schema is derived and to which each call's arguments are bound.
type Def[P any] struct {
	// Name is the function name the model uses.
	Name string
	// Description tells the model what the tool does (an embedded .md file,
	// with any limits filled in).
	Description string
	// Kind classifies the tool.
	Kind Kind
	// Schema, when set, replaces the schema derived from P, for parameters
	// the tags cannot express.
	Schema json.RawMessage
	// Bind, when set, replaces Bind[P]: for parameters the tags cannot
	// express, or a faster path for large arguments. Its errors are
	// problems the model can fix.
	Bind func(args json.RawMessage) (P, error)
	// Prepare checks the bound parameters and builds an invocation; an
	// error is a problem the model can fix (see Tool.Prepare).
	Prepare func(env *Env, p P) (Invocation, error)
}

// Define returns the Tool d describes. Without a Schema it derives one from
// P and panics when P's tags are wrong, a programming error that any test
// building the tool catches.
func Define[P any](d Def[P]) Tool {
	if d.Schema == nil {
		d.Schema = SchemaFor[P]()
	}
	custom := d.Bind != nil
	if !custom {
		d.Bind = Bind[P]
	}
	return &defined[P]{def: d, customBind: custom}
}

// defined is a Tool made by Define; customBind says its Def has a Bind of
// its own.
type defined[P any] struct {
	def        Def[P]
	customBind bool
}

func (t *defined[P]) Name() string            { return t.def.Name }
func (t *defined[P]) Description() string     { return t.def.Description }
func (t *defined[P]) Schema() json.RawMessage { return t.def.Schema }
func (t *defined[P]) Kind() Kind              { return t.def.Kind }

// Prepare binds args and hands them to the definition's Prepare.
func (t *defined[P]) Prepare(env *Env, args json.RawMessage) (Invocation, error) {
	p, err := t.def.Bind(args)
	if err != nil {
		return nil, err
	}
	return t.def.Prepare(env, p)
}

// PrepareValues is Prepare for arguments already decoded from JSON, bound
// by BindValues without copying their strings. A Def with a Bind of its
// own gets them as JSON.
func (t *defined[P]) PrepareValues(env *Env, args map[string]any) (Invocation, error) {
	if t.customBind {
		raw, err := json.Marshal(args)
		if err != nil {
			return nil, ArgErrorf("the arguments must be a JSON object of parameters")
		}
		return t.Prepare(env, raw)
	}
	p, err := BindValues[P](args)
	if err != nil {
		return nil, err
	}
	return t.def.Prepare(env, p)
}
