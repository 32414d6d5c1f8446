package agent

import (
	"errors"
	"slices"
	"testing"
)

func TestModelPicker(t *testing.T) {
	offered := []string{"m1", "m2"}
	m := newModelPicker("m1", offered)
	if err := m.set("m3"); !errors.Is(err, ErrUnknownModel) {
		t.Errorf("set(m3) = %v, want ErrUnknownModel", err)
	}
	if prev, final := m.try("m-new"); prev != "m1" || final {
		t.Errorf("try(m-new) = %q, %v; want m1 on trial", prev, final)
	}
	if prev, tried, ok := m.rollback(); !ok || prev != "m1" || tried != "m-new" || m.name() != "m1" {
		t.Errorf("rollback = %q, %q, %v; now %q", prev, tried, ok, m.name())
	}
	m.try("m-new")
	if name, ok := m.confirm(); !ok || name != "m-new" || !slices.Contains(m.list(), "m-new") {
		t.Errorf("confirm = %q, %v; offered %q", name, ok, m.list())
	}
	if _, ok := m.confirm(); ok {
		t.Error("a second confirm ended a trial again")
	}
	if from, ok := m.switchTo("m-small"); !ok || from != "m-new" || m.name() != "m-small" {
		t.Errorf("switchTo = %q, %v; now %q", from, ok, m.name())
	}
	if _, ok := m.switchTo("m-small"); ok {
		t.Error("switching to the current model reported a switch")
	}
	if !slices.Equal(offered, []string{"m1", "m2"}) {
		t.Errorf("the caller's list changed: %q", offered)
	}
}
