package telemetry

import (
	"context"
	"testing"
	"time"
)

// TestShutdownContext: a shutdown ends at the caller's deadline when it
// comes before ShutdownTimeout (one budget shared by several providers),
// never later than ShutdownTimeout, and goes on when the caller's
// context is cancelled (a cancelled session still flushes).
func TestShutdownContext(t *testing.T) {
	now := time.Now()
	soon, soonCancel := context.WithDeadline(context.Background(), now.Add(ShutdownTimeout/4))
	defer soonCancel()
	late, lateCancel := context.WithDeadline(context.Background(), now.Add(10*ShutdownTimeout))
	defer lateCancel()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	want, _ := soon.Deadline()
	tests := []struct {
		name string
		ctx  context.Context
		// want is the deadline; zero means ShutdownTimeout from now.
		want time.Time
	}{
		{"earlier deadline kept", soon, want},
		{"later deadline capped", late, time.Time{}},
		{"no deadline", context.Background(), time.Time{}},
		{"cancelled parent", cancelled, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := shutdownContext(tt.ctx)
			defer cancel()
			d, ok := ctx.Deadline()
			if !ok {
				t.Fatal("no deadline")
			}
			if !tt.want.IsZero() && !d.Equal(tt.want) {
				t.Errorf("deadline %v, want %v", d, tt.want)
			}
			if tt.want.IsZero() && d.After(time.Now().Add(ShutdownTimeout)) {
				t.Errorf("deadline %v is past ShutdownTimeout from now", d)
			}
			if err := ctx.Err(); err != nil {
				t.Errorf("the shutdown context is already done: %v", err)
			}
		})
	}
}
