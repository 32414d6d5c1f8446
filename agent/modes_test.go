package agent

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"companion/internal/testkit/agenttest"
)

// TestUntrustedModes: losing trust drops yolo to default once and says
// so; yolo and auto_edit are then refused by SetMode and AnnounceMode
// (what /mode calls), and not
// listed; trust back makes them available again.
func TestUntrustedModes(t *testing.T) {
	ctx := context.Background()
	s, rec := newTestSession(t, &agenttest.Model{})
	if err := s.SetMode(ModeYolo); err != nil {
		t.Fatal(err)
	}
	s.SetTrusted(ctx, false, "not trusted: because")
	s.SetTrusted(ctx, false, "")
	want := []Event{ModeChanged{ModeDefault}, Notice{Level: "warning", Text: "not trusted: because"}}
	if got := rec.All(); !reflect.DeepEqual(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	for _, m := range []string{ModeYolo, ModeAutoEdit} {
		if err := s.SetMode(m); !errors.Is(err, ErrUntrusted) {
			t.Errorf("SetMode(%s) = %v, want ErrUntrusted", m, err)
		}
		if err := s.AnnounceMode(ctx, m); !errors.Is(err, ErrUntrusted) || s.Mode() != ModeDefault {
			t.Errorf("AnnounceMode(%s) = %v, mode %s", m, err, s.Mode())
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
	if got := rec.All(); len(got) != 3 || got[2] != (ModeChanged{ModePlan}) {
		t.Errorf("trust back announced %v, want the modes again", got)
	}
	if len(s.AvailableModes()) != len(Modes()) || s.SetMode(ModeYolo) != nil {
		t.Error("trust back did not make yolo available")
	}
}
