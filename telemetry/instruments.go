package telemetry

import (
	"errors"

	"go.opentelemetry.io/otel/metric"
)

// instruments are the metrics a Provider records (names.go).
type instruments struct {
	sessions, turns, requests, errors, tokens, toolCalls metric.Int64Counter
	loops, compressions, permissions, fallbacks          metric.Int64Counter
	modelTime, toolTime                                  metric.Float64Histogram
}

// newInstruments makes the instruments on m.
func newInstruments(m metric.Meter) (instruments, error) {
	var in instruments
	var errs []error
	counter := func(name, desc, unit string) metric.Int64Counter {
		c, err := m.Int64Counter(name, metric.WithDescription(desc), metric.WithUnit(unit))
		errs = append(errs, err)
		return c
	}
	hist := func(name, desc string) metric.Float64Histogram {
		h, err := m.Float64Histogram(name, metric.WithDescription(desc), metric.WithUnit("ms"))
		errs = append(errs, err)
		return h
	}
	in.sessions = counter(MetricSessions, "Sessions started", "{session}")
	in.turns = counter(MetricTurns, "Prompt turns, by stop reason", "{turn}")
	in.requests = counter(MetricRequests, "Model requests, by model and status", "{request}")
	in.errors = counter(MetricErrors, "Failed model requests, by model and status", "{request}")
	in.tokens = counter(MetricTokens, "Tokens, by model and type (input, output, cached, thought)", "{token}")
	in.toolCalls = counter(MetricToolCalls, "Tool calls, by tool, decision and success", "{call}")
	in.loops = counter(MetricLoops, "Loops detected", "{loop}")
	in.compressions = counter(MetricCompression, "History compressions, by status", "{compression}")
	in.permissions = counter(MetricPermission, "Permission decisions, by decision and who made it", "{answer}")
	in.fallbacks = counter(MetricFallbacks, "Model fallbacks", "{fallback}")
	in.modelTime = hist(MetricModelTime, "Model request latency")
	in.toolTime = hist(MetricToolTime, "Tool call duration")
	return in, errors.Join(errs...)
}
