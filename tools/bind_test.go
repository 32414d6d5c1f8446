package tools

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

type bindSample struct {
	FilePath string   `json:"file_path" required:"true" alias:"path" desc:"the file"`
	Offset   int      `json:"offset" minimum:"0"`
	Ratio    float64  `json:"ratio"`
	Follow   bool     `json:"follow" default:"true"`
	Mode     string   `json:"mode" default:"fast"`
	Globs    []string `json:"globs"`
}

func TestBind(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		want    bindSample
		wantErr string
	}{
		{"all", `{"file_path":"a","offset":3,"ratio":0.5,"follow":false,"mode":"slow","globs":["*.go"]}`,
			bindSample{FilePath: "a", Offset: 3, Ratio: 0.5, Mode: "slow", Globs: []string{"*.go"}}, ""},
		{"defaults", `{"file_path":"a"}`, bindSample{FilePath: "a", Follow: true, Mode: "fast"}, ""},
		{"null is absent", `{"file_path":"a","offset":null,"follow":null}`, bindSample{FilePath: "a", Follow: true, Mode: "fast"}, ""},
		{"alias", `{"path":"a"}`, bindSample{FilePath: "a", Follow: true, Mode: "fast"}, ""},
		{"name wins over alias", `{"path":"b","file_path":"a"}`, bindSample{FilePath: "a", Follow: true, Mode: "fast"}, ""},
		{"whole float as integer", `{"file_path":"a","offset":10.0}`, bindSample{FilePath: "a", Offset: 10, Follow: true, Mode: "fast"}, ""},
		{"unknown ignored", `{"file_path":"a","extra":1}`, bindSample{FilePath: "a", Follow: true, Mode: "fast"}, ""},
		{"missing", `{}`, bindSample{}, `missing required parameter "file_path"`},
		{"empty args", ``, bindSample{}, `missing required parameter "file_path"`},
		{"null args", `null`, bindSample{}, `missing required parameter "file_path"`},
		{"required null", `{"file_path":null}`, bindSample{}, `missing required parameter "file_path"`},
		{"not an object", `[1]`, bindSample{}, `the arguments must be a JSON object of parameters`},
		{"string for int", `{"file_path":"a","offset":"3"}`, bindSample{}, `parameter "offset" must be an integer, not a string`},
		{"fraction for int", `{"file_path":"a","offset":1.5}`, bindSample{}, `parameter "offset" must be an integer, not a number`},
		{"below minimum", `{"file_path":"a","offset":-1}`, bindSample{}, `parameter "offset" must be at least 0, not -1`},
		{"number for string", `{"file_path":7}`, bindSample{}, `parameter "file_path" must be a string, not a number`},
		{"string for bool", `{"file_path":"a","follow":"yes"}`, bindSample{}, `parameter "follow" must be a boolean, not a string`},
		{"string for number", `{"file_path":"a","ratio":"1"}`, bindSample{}, `parameter "ratio" must be a number, not a string`},
		{"ints for strings", `{"file_path":"a","globs":[1]}`, bindSample{}, `parameter "globs" must be an array of strings, not an array of other values`},
		{"string for array", `{"file_path":"a","globs":"*.go"}`, bindSample{}, `parameter "globs" must be an array of strings, not a string`},
		{"object for string", `{"file_path":{}}`, bindSample{}, `parameter "file_path" must be a string, not an object`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Bind[bindSample](json.RawMessage(tt.args))
			checkBind(t, "Bind", tt.args, got, err, tt.want, tt.wantErr)
			// The same arguments decoded first, as a provider hands them
			// over, bind alike.
			var values map[string]any
			if json.Unmarshal([]byte(tt.args), &values) != nil || values == nil {
				return
			}
			got, err = BindValues[bindSample](values)
			checkBind(t, "BindValues", tt.args, got, err, tt.want, tt.wantErr)
		})
	}
}

func checkBind(t *testing.T, how, args string, got bindSample, err error, want bindSample, wantErr string) {
	t.Helper()
	if wantErr != "" {
		if err == nil || err.Error() != wantErr || !errors.Is(err, ErrInvalidArgs) {
			t.Errorf("%s(%s) error = %v, want %q wrapping ErrInvalidArgs", how, args, err, wantErr)
		}
		return
	}
	if err != nil {
		t.Errorf("%s(%s): %v", how, args, err)
	} else if !reflect.DeepEqual(got, want) {
		t.Errorf("%s(%s) = %+v, want %+v", how, args, got, want)
	}
}

func TestSchemaFor(t *testing.T) {
	var got, want any
	if err := json.Unmarshal(SchemaFor[bindSample](), &got); err != nil {
		t.Fatal(err)
	}
	const schema = `{"type":"object","required":["file_path"],"properties":{
		"file_path":{"type":"string","description":"the file"},
		"offset":{"type":"integer","minimum":0},
		"ratio":{"type":"number"},
		"follow":{"type":"boolean","default":true},
		"mode":{"type":"string","default":"fast"},
		"globs":{"type":"array","items":{"type":"string"}}}}`
	if err := json.Unmarshal([]byte(schema), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SchemaFor = %v\nwant %v", got, want)
	}
}

func TestBindBadStruct(t *testing.T) {
	type noName struct {
		A string
	}
	_, err := Bind[noName](nil)
	if err == nil || errors.Is(err, ErrInvalidArgs) {
		t.Errorf("Bind on a struct without json names = %v, want a programming error", err)
	}
}
