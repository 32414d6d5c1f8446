package telemetry_test

import (
	"slices"
	"strings"
	"testing"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"

	"companion/telemetry"
)

// metricSums is the counters' totals by name and attributes, as
// "name{k=v,...}" (attributes sorted), and the histograms' counts. The
// sums are cumulative: the largest of the exports is the total.
func metricSums(r *received) map[string]int64 {
	out := map[string]int64{}
	for _, rm := range r.metrics {
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				if s := m.GetSum(); s != nil {
					for _, dp := range s.DataPoints {
						k := m.Name + labels(dp.Attributes)
						out[k] = max(out[k], dp.GetAsInt())
					}
				}
				if h := m.GetHistogram(); h != nil {
					for _, dp := range h.DataPoints {
						k := m.Name + labels(dp.Attributes)
						out[k] = max(out[k], int64(dp.Count))
					}
				}
			}
		}
	}
	return out
}

func labels(kvs []*commonpb.KeyValue) string {
	var parts []string
	for _, kv := range kvs {
		parts = append(parts, kv.Key+"="+attr(kvs, kv.Key))
	}
	slices.Sort(parts)
	return "{" + strings.Join(parts, ",") + "}"
}

func checkMetrics(t *testing.T, got map[string]int64) {
	t.Helper()
	for key, want := range map[string]int64{
		telemetry.MetricSessions + "{}":                                                       1,
		telemetry.MetricTurns + "{stop_reason=end_turn}":                                      1,
		telemetry.MetricRequests + "{model=gemini-test,status=ok}":                            2,
		telemetry.MetricTokens + "{model=gemini-test,type=input}":                             100,
		telemetry.MetricTokens + "{model=gemini-test,type=thought}":                           3,
		telemetry.MetricToolCalls + "{decision=approved,success=true,tool.name=read_file}":    1,
		telemetry.MetricToolCalls + "{decision=denied,success=false,tool.name=write_file}":    1,
		telemetry.MetricPermission + "{decided_by=user,decision=denied,tool.name=write_file}": 1,
		telemetry.MetricModelTime + "{model=gemini-test}":                                     2,
	} {
		if got[key] != want {
			t.Errorf("metric %s = %d, want %d", key, got[key], want)
		}
	}
	if t.Failed() {
		t.Logf("metrics: %v", got)
	}
}

func checkLogs(t *testing.T, r *received) {
	t.Helper()
	seen := map[string]map[string]string{}
	for _, rl := range r.logs {
		for _, sl := range rl.ScopeLogs {
			for _, l := range sl.LogRecords {
				kv := map[string]string{}
				for _, a := range l.Attributes {
					kv[a.Key] = attr(l.Attributes, a.Key)
				}
				seen[l.EventName] = kv
			}
		}
	}
	if s, ok := seen[telemetry.LogSessionStart]; !ok || s["model"] != "gemini-test" {
		t.Errorf("session start record: %v", s)
	}
	p, ok := seen[telemetry.LogUserPrompt]
	if !ok || p["prompt.length"] != itoa(int64(len("please "+secretPrompt))) || p["prompt"] != "" {
		t.Errorf("user prompt record: %v", p)
	}
}
