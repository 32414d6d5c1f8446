package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// Parameter structs are plain structs whose exported fields carry tags:
//
//	json:"name"          the parameter name (required on every field)
//	required:"true"      the model must pass it
//	desc:"..."           its description in the schema
//	default:"..."        the value used when it is absent (also in the schema)
//	minimum:"0"          the least value of an integer
//	alias:"old_name"     an older name also accepted, not shown in the schema
//
// Field types may be string, bool, int, float64 and []string. SchemaFor and
// Bind read the same tags, so a tool's schema and what Bind accepts agree.

// argError is a problem with a call's arguments, phrased for the model. It
// matches ErrInvalidArgs under errors.Is.
type argError struct{ msg string }

func (e *argError) Error() string        { return e.msg }
func (e *argError) Is(target error) bool { return target == ErrInvalidArgs }

// ArgErrorf returns a problem with a call's arguments, phrased for the model;
// it matches ErrInvalidArgs under errors.Is.
func ArgErrorf(format string, a ...any) error { return &argError{msg: fmt.Sprintf(format, a...)} }

// param describes one field of a parameter struct.
type param struct {
	index    int
	name     string
	alias    string
	required bool
	desc     string
	def      string
	minimum  string
	typ      reflect.Type
}

// paramsOf reads the parameter tags of struct type t. An error means the
// struct itself is wrong: a programming error, not a bad call.
func paramsOf(t reflect.Type) ([]param, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("tools: params type %s is not a struct", t)
	}
	ps := make([]param, 0, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			return nil, fmt.Errorf("tools: field %s.%s needs a json name", t, f.Name)
		}
		if jsonType(f.Type) == "" {
			return nil, fmt.Errorf("tools: field %s.%s has unsupported type %s", t, f.Name, f.Type)
		}
		ps = append(ps, param{
			index: i, name: name, alias: f.Tag.Get("alias"),
			required: f.Tag.Get("required") == "true",
			desc:     f.Tag.Get("desc"), def: f.Tag.Get("default"),
			minimum: f.Tag.Get("minimum"), typ: f.Type,
		})
	}
	return ps, nil
}

// jsonType names the JSON Schema type of a supported Go type, or "".
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int:
		return "integer"
	case reflect.Float64:
		return "number"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.String {
			return "array"
		}
	}
	return ""
}

// article returns the type name with "a"/"an", for error sentences.
func article(jt string) string {
	switch jt {
	case "integer", "array":
		return "an " + jt
	case "array of strings":
		return "an array of strings"
	}
	return "a " + jt
}

// SchemaFor returns the JSON Schema (type object) of parameter struct T. It
// panics when T's tags are wrong, a programming error that any test building
// the tool catches.
func SchemaFor[T any]() json.RawMessage {
	ps, err := paramsOf(reflect.TypeFor[T]())
	if err != nil {
		panic(err)
	}
	props := map[string]any{}
	required := []string{}
	for _, p := range ps {
		prop := map[string]any{"type": jsonType(p.typ)}
		if p.desc != "" {
			prop["description"] = p.desc
		}
		if p.typ.Kind() == reflect.Slice {
			prop["items"] = map[string]any{"type": "string"}
		}
		if p.minimum != "" {
			n, _ := strconv.Atoi(p.minimum)
			prop["minimum"] = n
		}
		if p.def != "" {
			v, err := parseDefault(p)
			if err != nil {
				panic(err)
			}
			prop["default"] = v.Interface()
		}
		props[p.name] = prop
		if p.required {
			required = append(required, p.name)
		}
	}
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return b
}

// Bind decodes a call's JSON arguments into parameter struct T, applying
// defaults. A missing required parameter or a value of the wrong type comes
// back as one sentence the model can act on, wrapping ErrInvalidArgs.
// Parameters T does not know are ignored.
func Bind[T any](args json.RawMessage) (T, error) {
	obj, err := ArgObject(args)
	if err != nil {
		var out T
		return out, err
	}
	return bindParams[T](func(name string) (argValue, bool) {
		raw, ok := obj[name]
		return argValue{raw: raw}, ok && string(raw) != "null"
	})
}

// BindValues binds arguments already decoded from JSON (a provider's
// map[string]any) into parameter struct T, as Bind binds their JSON text.
// A string argument is taken as it is, without a copy: for a write of
// hundreds of megabytes, encoding the map again only for Bind to decode it
// costs four times the text. Other values go through Bind's own checks.
func BindValues[T any](args map[string]any) (T, error) {
	return bindParams[T](func(name string) (argValue, bool) {
		v, ok := args[name]
		if !ok || v == nil {
			return argValue{}, false
		}
		if s, ok := v.(string); ok {
			return argValue{str: s, isStr: true}, true
		}
		raw, err := json.Marshal(v)
		if err != nil {
			raw = json.RawMessage(`{}`)
		}
		return argValue{raw: raw}, true
	})
}

// argValue is one argument: its JSON text, or a string already decoded.
type argValue struct {
	raw   json.RawMessage
	str   string
	isStr bool
}

// bindParams fills T's fields from the arguments lookup finds; lookup
// reports false for an argument that is absent or null.
func bindParams[T any](lookup func(name string) (argValue, bool)) (T, error) {
	var out T
	v := reflect.ValueOf(&out).Elem()
	ps, err := paramsOf(v.Type())
	if err != nil {
		return out, err
	}
	for _, p := range ps {
		a, ok := lookup(p.name)
		if !ok && p.alias != "" {
			a, ok = lookup(p.alias)
		}
		if !ok {
			if p.required {
				return out, ArgErrorf("missing required parameter %q", p.name)
			}
			if p.def != "" {
				d, err := parseDefault(p)
				if err != nil {
					return out, err
				}
				v.Field(p.index).Set(d)
			}
			continue
		}
		if a.isStr && p.typ.Kind() == reflect.String {
			v.Field(p.index).SetString(a.str)
			continue
		}
		if a.isStr {
			// A string where another type is wanted: only its JSON type
			// matters to decodeParam, which refuses it.
			a.raw = json.RawMessage(`""`)
		}
		if err := decodeParam(p, a.raw, v.Field(p.index)); err != nil {
			return out, err
		}
	}
	return out, nil
}

// ArgObject parses the arguments as a JSON object; empty or null is {}.
func ArgObject(args json.RawMessage) (map[string]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return map[string]json.RawMessage{}, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &obj); err != nil {
		return nil, ArgErrorf("the arguments must be a JSON object of parameters")
	}
	return obj, nil
}

// decodeParam decodes one JSON value into field f.
func decodeParam(p param, raw json.RawMessage, f reflect.Value) error {
	want := jsonType(p.typ)
	if want == "array" {
		want = "array of strings"
	}
	bad := func() error {
		return ArgErrorf("parameter %q must be %s, not %s", p.name, article(want), DescribeJSON(raw))
	}
	switch p.typ.Kind() {
	case reflect.Int:
		var num float64
		if err := json.Unmarshal(raw, &num); err != nil || num != math.Trunc(num) ||
			math.Abs(num) > 1<<53 {
			return bad()
		}
		if p.minimum != "" {
			if m, _ := strconv.Atoi(p.minimum); int(num) < m {
				return ArgErrorf("parameter %q must be at least %d, not %d", p.name, m, int(num))
			}
		}
		f.SetInt(int64(num))
		return nil
	default:
		if raw[0] == '"' && p.typ.Kind() != reflect.String {
			return bad()
		}
		if err := json.Unmarshal(raw, f.Addr().Interface()); err != nil {
			return bad()
		}
		return nil
	}
}

// DescribeJSON names the JSON type of a raw value for error sentences.
func DescribeJSON(raw json.RawMessage) string {
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array of other values"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// parseDefault converts a default tag to a value of the field's type.
func parseDefault(p param) (reflect.Value, error) {
	v := reflect.New(p.typ).Elem()
	var err error
	switch p.typ.Kind() {
	case reflect.String:
		v.SetString(p.def)
	case reflect.Bool:
		var b bool
		b, err = strconv.ParseBool(p.def)
		v.SetBool(b)
	case reflect.Int:
		var n int
		n, err = strconv.Atoi(p.def)
		v.SetInt(int64(n))
	case reflect.Float64:
		var x float64
		x, err = strconv.ParseFloat(p.def, 64)
		v.SetFloat(x)
	default:
		err = fmt.Errorf("no default of type %s", p.typ)
	}
	if err != nil {
		return v, fmt.Errorf("tools: bad default for %q: %w", p.name, err)
	}
	return v, nil
}
