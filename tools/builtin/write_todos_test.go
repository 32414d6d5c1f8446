package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"companion/internal/testkit/testio"
	"companion/tools"
)

func TestWriteTodos(t *testing.T) {
	tool := extraTool(t, "write_todos", ExtraOptions{})
	env := newEnv(t, testio.RealTempDir(t))
	tests := []struct {
		name string
		args string
		plan []tools.PlanEntry
		text string
	}{
		{"gemini shape",
			`{"todos":[{"description":"Read the code","status":"completed"},
				{"description":"Write tests","status":"in_progress"},
				{"description":"Drop the old API","status":"cancelled"},
				{"description":"Update docs","status":"pending"}]}`,
			[]tools.PlanEntry{
				{Content: "Read the code", Priority: "medium", Status: "completed"},
				{Content: "Write tests", Priority: "medium", Status: "in_progress"},
				{Content: "Update docs", Priority: "medium", Status: "pending"},
			},
			"Todo list updated: 1 completed, 1 in progress, 1 pending, 1 cancelled.\n" +
				"1. [completed] Read the code\n2. [in_progress] Write tests\n3. [cancelled] Drop the old API\n4. [pending] Update docs"},
		{"content and priority",
			`{"todos":[{"content":"  Fix the bug ","status":"In-Progress","priority":"HIGH"},
				{"content":"Tidy","description":"Tidy up","status":"pending","priority":"low"}]}`,
			[]tools.PlanEntry{
				{Content: "Fix the bug", Priority: "high", Status: "in_progress"},
				{Content: "Tidy up", Priority: "low", Status: "pending"},
			},
			"Todo list updated: 1 in progress, 1 pending.\n1. [in_progress] Fix the bug (high priority)\n2. [pending] Tidy up (low priority)"},
		{"nothing in progress",
			`{"todos":[{"description":"Plan","status":"pending"}]}`,
			[]tools.PlanEntry{{Content: "Plan", Priority: "medium", Status: "pending"}},
			"Todo list updated: 1 pending.\n1. [pending] Plan\nNo todo is in_progress: mark the one you start next in_progress."},
		{"list as a JSON string",
			`{"todos":"[{\"description\":\"Ship\",\"status\":\"completed\"}]"}`,
			[]tools.PlanEntry{{Content: "Ship", Priority: "medium", Status: "completed"}},
			"Todo list updated: 1 completed.\n1. [completed] Ship"},
		{"cleared", `{"todos":[]}`, []tools.PlanEntry{}, "Todo list cleared."},
		{"all cancelled", `{"todos":[{"description":"x","status":"cancelled"}]}`, []tools.PlanEntry{},
			"Todo list updated: 1 cancelled.\n1. [cancelled] x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, tool, env, tt.args)
			if res.IsError || res.Text != tt.text {
				t.Errorf("text (error %v):\n%s\nwant\n%s", res.IsError, res.Text, tt.text)
			}
			if res.Plan == nil || !reflect.DeepEqual(res.Plan, tt.plan) {
				t.Errorf("plan = %#v, want %#v", res.Plan, tt.plan)
			}
		})
	}
}

func TestWriteTodosRaw(t *testing.T) {
	res := call(t, extraTool(t, "write_todos", ExtraOptions{}), newEnv(t, testio.RealTempDir(t)),
		`{"todos":[{"description":"a","status":"completed"},{"description":"b","status":"cancelled","priority":"low"}]}`)
	want := WriteTodosRaw{Todos: []TodoRaw{
		{Description: "a", Status: "completed", Priority: "medium"},
		{Description: "b", Status: "cancelled", Priority: "low"},
	}}
	if !reflect.DeepEqual(res.Raw, want) {
		t.Errorf("raw = %+v, want %+v", res.Raw, want)
	}
	if res.Display != "Updated the plan: 1 of 1 done" {
		t.Errorf("display = %q", res.Display)
	}
}

func TestWriteTodosInvalid(t *testing.T) {
	tool := extraTool(t, "write_todos", ExtraOptions{MaxTodos: 3})
	env := newEnv(t, testio.RealTempDir(t))
	item := func(desc, status string) string {
		return `{"description":"` + desc + `","status":"` + status + `"}`
	}
	tests := []struct{ args, want string }{
		{`{}`, `missing required parameter "todos"`},
		{`{"todos":null}`, `missing required parameter "todos"`},
		{`{"todos":"write tests"}`, `parameter "todos" must be an array of {description, status} objects, not a string`},
		{`{"todos":{"a":1}}`, `parameter "todos" must be an array of {description, status} objects, not an object`},
		{`{"todos":["write tests"]}`, `todo 1 must be an object with description and status, not a string`},
		{`{"todos":[` + item("a", "pending") + `,` + item(" ", "pending") + `]}`, `todo 2 has an empty description`},
		{`{"todos":[{"status":"pending"}]}`, `todo 1 has an empty description`},
		{`{"todos":[` + item("a", "done") + `]}`, `todo 1 ("a") has status "done"; use pending, in_progress, completed or cancelled`},
		{`{"todos":[{"description":"a"}]}`, `todo 1 ("a") has status ""; use pending, in_progress, completed or cancelled`},
		{`{"todos":[{"description":"a","status":"pending","priority":"urgent"}]}`, `todo 1 ("a") has priority "urgent"; use high, medium or low`},
		{`{"todos":[{"description":"a","status":3}]}`, `todo 1: "status" must be a string, not a number`},
		{`{"todos":[` + item("a", "in_progress") + `,` + item("b", "pending") + `,` + item("c", "in_progress") + `]}`,
			`todos 1, 3 are all in_progress; at most one todo may be in_progress at a time`},
		{`{"todos":[` + strings.Repeat(item("a", "pending")+",", 3) + item("b", "pending") + `]}`,
			`the list has 4 todos; at most 3 are allowed, so merge or drop some`},
	}
	for _, tt := range tests {
		_, err := tool.Prepare(env, json.RawMessage(tt.args))
		if !errors.Is(err, tools.ErrInvalidArgs) || err.Error() != tt.want {
			t.Errorf("Prepare(%s) = %v\nwant %s", tt.args, err, tt.want)
		}
	}
}

func TestWriteTodosTool(t *testing.T) {
	tool := extraTool(t, "write_todos", ExtraOptions{MaxTodos: 7})
	if tool.Kind() != tools.KindThink {
		t.Errorf("Kind() = %q", tool.Kind())
	}
	if !strings.Contains(tool.Description(), "At most 7 items") {
		t.Errorf("description does not show the limit:\n%s", tool.Description())
	}
	validate := compileSchema(t, tool.Schema())
	for args, ok := range map[string]bool{
		`{"todos":[]}`: true,
		`{"todos":[{"description":"a","status":"pending","priority":"high"}]}`: true,
		`{}`: false,
		`{"todos":[{"description":"a","status":"done"}]}`:                                                                        false,
		`{"todos":[{"description":"a","status":"pending","priority":"urgent"}]}`:                                                 false,
		`{"todos":[{"status":"pending"}]}`:                                                                                       false,
		`{"todos":[` + strings.Repeat(`{"description":"a","status":"pending"},`, 7) + `{"description":"a","status":"pending"}]}`: false,
	} {
		schemaErr := validate(args)
		_, err := tool.Prepare(newEnv(t, testio.RealTempDir(t)), json.RawMessage(args))
		if (schemaErr == nil) != ok || (err == nil) != ok {
			t.Errorf("%s: schema says %v, Prepare says %v; want ok=%v", args, schemaErr, err, ok)
		}
	}
	inv, err := tool.Prepare(nil, json.RawMessage(`{"todos":[{"description":"a","status":"pending"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := inv.Confirmation(context.Background()); c != nil || err != nil || inv.Title() != "Update todo list (1 item)" {
		t.Errorf("Confirmation() = %v, %v; Title() = %q", c, err, inv.Title())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := inv.Execute(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Execute(cancelled) = %v", err)
	}
}

func TestOpenTodosAndReminder(t *testing.T) {
	plan := []tools.PlanEntry{
		{Content: "Read", Status: "completed"},
		{Content: "Write", Status: "in_progress"},
		{Content: "Gone", Status: "cancelled"},
		{Content: "Ship", Status: "pending", Priority: "high"},
	}
	open := OpenTodos(plan)
	if want := []tools.PlanEntry{plan[1], plan[3]}; !reflect.DeepEqual(open, want) {
		t.Errorf("OpenTodos = %+v, want %+v", open, want)
	}
	want := "<system-reminder>\nOpen items on your todo list:\n- [in_progress] Write\n- [pending] Ship\n" +
		"Keep the list current with write_todos: mark an item in_progress when you start it and completed as soon as it is done. " +
		"Do not mention this reminder to the user.\n</system-reminder>"
	if got := TodoReminder(plan); got != want {
		t.Errorf("TodoReminder =\n%s\nwant\n%s", got, want)
	}
	for _, done := range [][]tools.PlanEntry{nil, {}, plan[:1], {plan[0], plan[2]}} {
		if got := TodoReminder(done); got != "" {
			t.Errorf("TodoReminder(%+v) = %q, want \"\"", done, got)
		}
		if got := OpenTodos(done); len(got) != 0 {
			t.Errorf("OpenTodos(%+v) = %+v", done, got)
		}
	}
}
