package telemetry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	otellog "go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// ShutdownTimeout bounds the flush when a session closes. It is one
// budget for the whole process too: the host shuts every open session's
// provider down side by side under one deadline this long (see Shutdown).
const ShutdownTimeout = 2 * time.Second

// Options configure a Provider.
type Options struct {
	// Target is "local" or "gcp" (both export over OTLP, or to Outfile).
	Target string
	// Endpoint is the OTLP collector; "" means http://localhost:4317
	// (grpc) or http://localhost:4318 (http).
	Endpoint string
	// Protocol is "grpc" ("" too) or "http".
	Protocol string
	// Outfile, when set, receives everything instead of a collector.
	Outfile string
	// LogPrompts exports prompt text and tool arguments.
	LogPrompts bool
	// SessionID and Version go into the resource.
	SessionID, Version string
	// Log receives the exporters' problems; nil discards them.
	Log *slog.Logger
	// ExportInterval is how often metrics are sent; 0 means 10s.
	ExportInterval time.Duration
}

// Provider is one session's telemetry: the SDK's three providers and the
// instruments. It implements agent.Telemetry (observer.go).
type Provider struct {
	opts   Options
	tp     *sdktrace.TracerProvider
	mp     *sdkmetric.MeterProvider
	lp     *sdklog.LoggerProvider
	tracer trace.Tracer
	logger otellog.Logger
	inst   instruments
	closer func() error
	once   sync.Once
}

// New builds the exporters and the providers of one session. It opens
// the outfile or sets up the OTLP clients (gRPC dials lazily), and sends
// nothing until there is something to send.
func New(ctx context.Context, o Options) (*Provider, error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.ExportInterval <= 0 {
		o.ExportInterval = 10 * time.Second
	}
	ex, err := newExporters(ctx, o)
	if err != nil {
		return nil, err
	}
	res := resource.NewSchemaless(
		attribute.String("service.name", "companion"), attribute.String("service.version", o.Version),
		attribute.String("session.id", o.SessionID), attribute.String("os.type", runtime.GOOS))
	p := &Provider{opts: o, closer: ex.close}
	p.tp = sdktrace.NewTracerProvider(sdktrace.WithResource(res),
		sdktrace.WithBatcher(ex.span, sdktrace.WithBatchTimeout(time.Second), sdktrace.WithExportTimeout(ShutdownTimeout)))
	p.mp = sdkmetric.NewMeterProvider(sdkmetric.WithResource(res),
		sdkmetric.WithReader(sdkmetric.NewPeriodicReader(ex.metric, sdkmetric.WithInterval(o.ExportInterval),
			sdkmetric.WithTimeout(ShutdownTimeout))))
	p.lp = sdklog.NewLoggerProvider(sdklog.WithResource(res),
		sdklog.WithProcessor(sdklog.NewBatchProcessor(ex.log, sdklog.WithExportInterval(time.Second),
			sdklog.WithExportTimeout(ShutdownTimeout))))
	p.tracer = p.tp.Tracer("companion")
	p.logger = p.lp.Logger("companion")
	if p.inst, err = newInstruments(p.mp.Meter("companion")); err != nil {
		p.Shutdown(ctx)
		return nil, err
	}
	return p, nil
}

// Shutdown flushes what is pending and stops the providers, within
// ShutdownTimeout whatever the collector does, or by ctx's deadline when
// that comes first: callers shutting several providers down share one
// budget by passing one deadline. ctx's cancellation is ignored (a
// cancelled session still flushes). Later calls do nothing.
func (p *Provider) Shutdown(ctx context.Context) error {
	var err error
	p.once.Do(func() {
		ctx, cancel := shutdownContext(ctx)
		defer cancel()
		var wg sync.WaitGroup
		errs := make([]error, 3)
		for i, f := range []func(context.Context) error{p.tp.Shutdown, p.mp.Shutdown, p.lp.Shutdown} {
			wg.Go(func() { errs[i] = f(ctx) })
		}
		wg.Wait()
		errs = append(errs, p.closer())
		if err = errors.Join(errs...); err != nil {
			p.opts.Log.Warn("telemetry shutdown", "err", err)
			err = fmt.Errorf("telemetry: %w", err)
		}
	})
	return err
}

// shutdownContext is ctx without its cancellation, ending after
// ShutdownTimeout or at ctx's deadline, whichever comes first.
func shutdownContext(ctx context.Context) (context.Context, context.CancelFunc) {
	deadline := time.Now().Add(ShutdownTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	return context.WithDeadline(context.WithoutCancel(ctx), deadline)
}

// SessionInfo is the configuration summary of the session start record;
// it holds no secrets.
type SessionInfo struct {
	Model, Provider, ApprovalMode, Sandbox string
	MCPServers                             int
}

// SessionStarted counts the session and logs its start.
func (p *Provider) SessionStarted(ctx context.Context, s SessionInfo) {
	p.inst.sessions.Add(ctx, 1)
	p.emit(ctx, LogSessionStart,
		attribute.String("model", s.Model), attribute.String("provider", s.Provider),
		attribute.String("approval_mode", s.ApprovalMode), attribute.String("sandbox", s.Sandbox),
		attribute.Int("mcp_servers", s.MCPServers), attribute.String("telemetry.target", p.opts.Target),
		attribute.Bool("telemetry.log_prompts", p.opts.LogPrompts))
}

// MCPState logs a change of an MCP server's state ("connected",
// "failed", "stopped"); errText may be "".
func (p *Provider) MCPState(ctx context.Context, server, state, errText string) {
	attrs := []attribute.KeyValue{attribute.String("server", server), attribute.String("state", state)}
	if errText != "" {
		attrs = append(attrs, attribute.String("error", errText))
	}
	p.emit(ctx, LogMCPState, attrs...)
}

// emit sends one log record named name.
func (p *Provider) emit(ctx context.Context, name string, attrs ...attribute.KeyValue) {
	var r otellog.Record
	now := time.Now()
	r.SetTimestamp(now)
	r.SetObservedTimestamp(now)
	r.SetEventName(name)
	r.SetBody(attribute.StringValue(name))
	r.SetSeverity(otellog.SeverityInfo)
	r.AddAttributes(attribute.String("event.name", name))
	r.AddAttributes(attrs...)
	p.logger.Emit(ctx, r)
}
