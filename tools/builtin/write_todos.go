package builtin

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"companion/tools"
)

//go:embed descriptions/write_todos.md
var writeTodosDescription string

// Todo statuses and priorities, as the model and ACP plans spell them.
const (
	todoPending    = "pending"
	todoInProgress = "in_progress"
	todoCompleted  = "completed"
	todoCancelled  = "cancelled"
	todoMedium     = "medium"
)

// writeTodosTool replaces the session's todo list (its plan).
type writeTodosTool struct {
	maxTodos int
}

func newWriteTodos(o ExtraOptions) tools.Tool {
	t := &writeTodosTool{maxTodos: o.MaxTodos}
	return tools.Define(tools.Def[[]json.RawMessage]{
		Name: "write_todos", Kind: tools.KindThink,
		Description: strings.ReplaceAll(writeTodosDescription, "{max_todos}", strconv.Itoa(o.MaxTodos)),
		Schema:      writeTodosSchema(o.MaxTodos),
		Bind:        todoItems,
		Prepare:     t.prepare,
	})
}

// writeTodosSchema is write_todos' parameter schema, written out by hand:
// its array of objects is beyond what SchemaFor describes.
func writeTodosSchema(maxTodos int) json.RawMessage {
	str := func(desc string, enum ...string) map[string]any {
		m := map[string]any{"type": "string", "description": desc}
		if len(enum) > 0 {
			m["enum"] = enum
		}
		return m
	}
	item := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"description": str("What to do, as one short imperative sentence."),
			"status": str("The item's state. At most one item may be in_progress.",
				todoPending, todoInProgress, todoCompleted, todoCancelled),
			"priority": str("How important the item is. Defaults to medium.", "high", todoMedium, "low"),
		},
		"required": []string{"description", "status"},
	}
	s := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"todos": map[string]any{
				"type":        "array",
				"description": "The complete todo list, in order. It replaces the previous list; pass [] to clear it.",
				"maxItems":    maxTodos,
				"items":       item,
			},
		},
		"required": []string{"todos"},
	}
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return b
}

// todoArg is one item as the model sends it; content is accepted for
// description and status is normalised before it is checked.
type todoArg struct {
	Description string `json:"description"`
	Content     string `json:"content"`
	Status      string `json:"status"`
	Priority    string `json:"priority"`
}

// todo is one checked item, cancelled ones included.
type todo struct {
	description, status, priority string
}

// prepare checks the items todoItems extracted.
func (t *writeTodosTool) prepare(_ *tools.Env, items []json.RawMessage) (tools.Invocation, error) {
	if len(items) > t.maxTodos {
		return nil, tools.ArgErrorf("the list has %d todos; at most %d are allowed, so merge or drop some", len(items), t.maxTodos)
	}
	todos := make([]todo, 0, len(items))
	var active []string
	for i, raw := range items {
		td, err := checkTodo(i+1, raw)
		if err != nil {
			return nil, err
		}
		if td.status == todoInProgress {
			active = append(active, strconv.Itoa(i+1))
		}
		todos = append(todos, td)
	}
	if len(active) > 1 {
		return nil, tools.ArgErrorf("todos %s are all in_progress; at most one todo may be in_progress at a time",
			strings.Join(active, ", "))
	}
	return &writeTodosCall{todos: todos}, nil
}

// todoItems extracts the raw items of the todos array. A list sent as a
// JSON string holding the array is accepted too.
func todoItems(args json.RawMessage) ([]json.RawMessage, error) {
	obj, err := tools.ArgObject(args)
	if err != nil {
		return nil, err
	}
	raw, ok := obj["todos"]
	if !ok || string(raw) == "null" {
		return nil, tools.ArgErrorf("missing required parameter %q", "todos")
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil && strings.HasPrefix(strings.TrimSpace(s), "[") {
			raw = json.RawMessage(s)
		}
	}
	var items []json.RawMessage
	if raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		return nil, tools.ArgErrorf("parameter %q must be an array of {description, status} objects, not %s",
			"todos", tools.DescribeJSON(raw))
	}
	return items, nil
}

// checkTodo decodes and checks item n (1-based) of the list.
func checkTodo(n int, raw json.RawMessage) (todo, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return todo{}, tools.ArgErrorf("todo %d must be an object with description and status, not %s", n, tools.DescribeJSON(raw))
	}
	var a todoArg
	if err := json.Unmarshal(raw, &a); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return todo{}, tools.ArgErrorf("todo %d: %q must be a string, not a %s", n, te.Field, te.Value)
		}
		return todo{}, tools.ArgErrorf("todo %d is not a valid object: %v", n, err)
	}
	td := todo{
		description: strings.TrimSpace(cmpOr(a.Description, a.Content)),
		status:      normaliseWord(a.Status),
		priority:    normaliseWord(a.Priority),
	}
	if td.description == "" {
		return todo{}, tools.ArgErrorf("todo %d has an empty description", n)
	}
	switch td.status {
	case todoPending, todoInProgress, todoCompleted, todoCancelled:
	default:
		return todo{}, tools.ArgErrorf("todo %d (%q) has status %q; use pending, in_progress, completed or cancelled",
			n, td.description, a.Status)
	}
	switch td.priority {
	case "":
		td.priority = todoMedium
	case "high", todoMedium, "low":
	default:
		return todo{}, tools.ArgErrorf("todo %d (%q) has priority %q; use high, medium or low", n, td.description, a.Priority)
	}
	return td, nil
}

// cmpOr returns a, or b when a is blank.
func cmpOr(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}

// normaliseWord lower-cases s and spells "in-progress" or "in progress"
// as "in_progress".
func normaliseWord(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.NewReplacer("-", "_", " ", "_").Replace(s)
}

// writeTodosCall is one validated write_todos call.
type writeTodosCall struct {
	todos []todo
}

// WriteTodosRaw is write_todos' structured output for front ends: the
// whole list as the model wrote it, cancelled items included.
type WriteTodosRaw struct {
	Todos []TodoRaw `json:"todos"`
}

// TodoRaw is one item of WriteTodosRaw.
type TodoRaw struct {
	Description string `json:"description"`
	Status      string `json:"status"`
	Priority    string `json:"priority"`
}

func (c *writeTodosCall) Title() string {
	return fmt.Sprintf("Update todo list (%d %s)", len(c.todos), plural(len(c.todos), "item", "items"))
}
func (c *writeTodosCall) Locations() []tools.Location                               { return nil }
func (c *writeTodosCall) Confirmation(context.Context) (*tools.Confirmation, error) { return nil, nil }

func (c *writeTodosCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	plan := make([]tools.PlanEntry, 0, len(c.todos)) // never nil: an empty plan clears the editor's
	raw := WriteTodosRaw{Todos: make([]TodoRaw, 0, len(c.todos))}
	counts := map[string]int{}
	for _, td := range c.todos {
		counts[td.status]++
		raw.Todos = append(raw.Todos, TodoRaw{Description: td.description, Status: td.status, Priority: td.priority})
		if td.status != todoCancelled {
			plan = append(plan, tools.PlanEntry{Content: td.description, Priority: td.priority, Status: td.status})
		}
	}
	return &tools.Result{
		Text:    c.summary(counts),
		Display: fmt.Sprintf("Updated the plan: %d of %d done", counts[todoCompleted], len(plan)),
		Raw:     raw,
		Plan:    plan,
	}, nil
}

// summary is the list as the model reads it back, with counts and a nudge
// when nothing is in progress.
func (c *writeTodosCall) summary(counts map[string]int) string {
	if len(c.todos) == 0 {
		return "Todo list cleared."
	}
	var parts []string
	for _, s := range []string{todoCompleted, todoInProgress, todoPending, todoCancelled} {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s], strings.ReplaceAll(s, "_", " ")))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Todo list updated: %s.\n", strings.Join(parts, ", "))
	for i, td := range c.todos {
		fmt.Fprintf(&b, "%d. [%s] %s", i+1, td.status, td.description)
		if td.priority != todoMedium {
			fmt.Fprintf(&b, " (%s priority)", td.priority)
		}
		b.WriteByte('\n')
	}
	if counts[todoInProgress] == 0 && counts[todoPending] > 0 {
		b.WriteString("No todo is in_progress: mark the one you start next in_progress.\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// OpenTodos returns the entries still to do: those neither completed nor
// cancelled, in order. The agent uses it to decide whether to remind the
// model of its plan.
func OpenTodos(entries []tools.PlanEntry) []tools.PlanEntry {
	var open []tools.PlanEntry
	for _, e := range entries {
		if e.Status != todoCompleted && e.Status != todoCancelled {
			open = append(open, e)
		}
	}
	return open
}

// TodoReminder returns a short <system-reminder> block listing the open
// todos, for the agent to add to the model's context so the plan is not
// forgotten over a long turn; "" when nothing is open.
func TodoReminder(entries []tools.PlanEntry) string {
	open := OpenTodos(entries)
	if len(open) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<system-reminder>\nOpen items on your todo list:\n")
	for _, e := range open {
		fmt.Fprintf(&b, "- [%s] %s\n", e.Status, e.Content)
	}
	b.WriteString("Keep the list current with write_todos: mark an item in_progress when you start it and completed as soon as it is done. Do not mention this reminder to the user.\n</system-reminder>")
	return b.String()
}
