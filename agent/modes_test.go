package agent

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// TestUntrustedModes: losing trust drops yolo to default once and says
// so; yolo and auto_edit are then refused by SetMode and /mode, and not
// listed; trust back makes them available again.
func TestUntrustedModes(t *testing.T) {
	ctx := context.Background()
	s, rec := newTestSession(t, &fakeModel{})
	if err := s.SetMode(ModeYolo); err != nil {
		t.Fatal(err)
	}
	s.SetTrusted(ctx, false, "not trusted: because")
	s.SetTrusted(ctx, false, "")
	want := []Event{ModeChanged{ModeDefault}, Notice{Level: "warning", Text: "not trusted: because"}}
	if got := rec.all(); !reflect.DeepEqual(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	for _, m := range []string{ModeYolo, ModeAutoEdit} {
		if err := s.SetMode(m); !errors.Is(err, ErrUntrusted) {
			t.Errorf("SetMode(%s) = %v, want ErrUntrusted", m, err)
		}
		if out := s.cmds.modeCommand(ctx, m); s.Mode() != ModeDefault || out == "Mode switched to "+m+"." {
			t.Errorf("/mode %s = %q, mode %s", m, out, s.Mode())
		}
	}
	if err := s.SetMode(ModePlan); err != nil {
		t.Errorf("SetMode(plan) untrusted = %v", err)
	}
	var ids []string
	for _, m := range s.AvailableModes() {
		ids = append(ids, m.ID)
	}
	if !reflect.DeepEqual(ids, []string{ModeDefault, ModePlan}) {
		t.Errorf("available modes = %v", ids)
	}
	s.SetTrusted(ctx, true, "")
	if got := rec.all(); len(got) != 3 || got[2] != (ModeChanged{ModePlan}) {
		t.Errorf("trust back announced %v, want the modes again", got)
	}
	if len(s.AvailableModes()) != len(Modes()) || s.SetMode(ModeYolo) != nil {
		t.Error("trust back did not make yolo available")
	}
}
