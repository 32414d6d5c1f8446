//go:build unix

package builtin

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"testing"

	"companion/tools"
)

// hugeCommand prints 100 MB.
const hugeCommand = `head -c 100000000 /dev/zero | tr '\0' a`

func TestRunShellHugeOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("prints 100 MB")
	}
	env := shellEnv(t)
	res, rec := runShell(t, env, ShellOptions{}, map[string]any{"command": hugeCommand})
	raw := res.Raw.(ShellRaw)
	if raw.ExitCode == nil || *raw.ExitCode != 0 || !raw.Truncated {
		t.Fatalf("raw = %+v", raw)
	}
	if len(res.Text) >= 64<<10 || !strings.HasPrefix(res.Text, "aaaa") {
		t.Errorf("result text is %d bytes, want under 64 KiB", len(res.Text))
	}
	st, err := os.Stat(raw.OutputFile)
	if err != nil || st.Size() != 100_000_000 || raw.Bytes != 100_000_000 {
		t.Errorf("saved output: %v, %v (raw says %d); want 100000000 bytes", st, err, raw.Bytes)
	}
	if n := len(rec.String()); n > 64<<10+200 {
		t.Errorf("streamed %d bytes to the editor, want at most the 64 KiB stream limit", n)
	}
}

// BenchmarkShellHugeOutput runs a command printing 100 MB and reports the
// Go heap in use after the run and the memory the runtime holds from the
// system, which bound the companion's own share of the resident set.
func BenchmarkShellHugeOutput(b *testing.B) {
	roots, err := tools.NewRoots(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	env := &tools.Env{Roots: roots, StateDir: b.TempDir(), Log: slog.New(slog.DiscardHandler)}
	tool := newRunShell(ShellOptions{}.withDefaults())
	args, _ := json.Marshal(map[string]any{"command": hugeCommand})
	b.ReportAllocs()
	for b.Loop() {
		inv, err := tool.Prepare(env, args)
		if err != nil {
			b.Fatal(err)
		}
		res, err := inv.Execute(context.Background(), discardOutput{})
		if err != nil || res.IsError {
			b.Fatalf("%v %+v", err, res)
		}
		_ = os.Remove(res.Raw.(ShellRaw).OutputFile)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-inuse-MiB")
	b.ReportMetric(float64(ms.Sys)/(1<<20), "sys-MiB")
}
