package telemetry

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"

	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdoutlog"
	"go.opentelemetry.io/otel/exporters/stdout/stdoutmetric"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// exporters are the three signals' exporters and what closes the file
// they may share.
type exporters struct {
	span   sdktrace.SpanExporter
	metric sdkmetric.Exporter
	log    sdklog.Exporter
	close  func() error
}

// newExporters picks the file or the OTLP protocol the options ask for.
func newExporters(ctx context.Context, o Options) (exporters, error) {
	if o.Outfile != "" {
		return fileExporters(o.Outfile)
	}
	ep, err := parseEndpoint(o.Endpoint, o.Protocol)
	if err != nil {
		return exporters{}, err
	}
	if o.Protocol == "http" {
		return httpExporters(ctx, ep)
	}
	return grpcExporters(ctx, ep)
}

// endpoint is a collector's address as the OTLP options want it.
type endpoint struct {
	host     string // host:port
	path     string // the URL's path, without a trailing slash (http)
	insecure bool
}

// parseEndpoint reads "http(s)://host:port[/path]" or "host:port"; the
// latter is plain text on loopback hosts, TLS elsewhere.
func parseEndpoint(raw, protocol string) (endpoint, error) {
	if raw == "" {
		raw = "http://localhost:4317"
		if protocol == "http" {
			raw = "http://localhost:4318"
		}
	}
	if !strings.Contains(raw, "://") {
		host, _, err := net.SplitHostPort(raw)
		if err != nil {
			return endpoint{}, fmt.Errorf("telemetry.otlpEndpoint %q: %w", raw, err)
		}
		ip := net.ParseIP(host)
		return endpoint{host: raw, insecure: host == "localhost" || (ip != nil && ip.IsLoopback())}, nil
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return endpoint{}, fmt.Errorf("telemetry.otlpEndpoint %q: want http(s)://host:port", raw)
	}
	return endpoint{host: u.Host, path: strings.TrimSuffix(u.Path, "/"), insecure: u.Scheme == "http"}, nil
}

// httpExporters send OTLP/HTTP (protobuf) to ep's /v1/traces,
// /v1/metrics and /v1/logs.
func httpExporters(ctx context.Context, ep endpoint) (exporters, error) {
	to := []otlptracehttp.Option{otlptracehttp.WithEndpoint(ep.host), otlptracehttp.WithURLPath(ep.path + "/v1/traces"),
		otlptracehttp.WithTimeout(ShutdownTimeout)}
	mo := []otlpmetrichttp.Option{otlpmetrichttp.WithEndpoint(ep.host), otlpmetrichttp.WithURLPath(ep.path + "/v1/metrics"),
		otlpmetrichttp.WithTimeout(ShutdownTimeout)}
	lo := []otlploghttp.Option{otlploghttp.WithEndpoint(ep.host), otlploghttp.WithURLPath(ep.path + "/v1/logs"),
		otlploghttp.WithTimeout(ShutdownTimeout)}
	if ep.insecure {
		to, mo, lo = append(to, otlptracehttp.WithInsecure()), append(mo, otlpmetrichttp.WithInsecure()), append(lo, otlploghttp.WithInsecure())
	}
	var ex exporters
	var err error
	if ex.span, err = otlptracehttp.New(ctx, to...); err != nil {
		return ex, fmt.Errorf("telemetry: %w", err)
	}
	if ex.metric, err = otlpmetrichttp.New(ctx, mo...); err != nil {
		return ex, fmt.Errorf("telemetry: %w", err)
	}
	if ex.log, err = otlploghttp.New(ctx, lo...); err != nil {
		return ex, fmt.Errorf("telemetry: %w", err)
	}
	ex.close = func() error { return nil }
	return ex, nil
}

// grpcExporters send OTLP over gRPC to ep; the connection is made when
// the first batch goes out.
func grpcExporters(ctx context.Context, ep endpoint) (exporters, error) {
	to := []otlptracegrpc.Option{otlptracegrpc.WithEndpoint(ep.host), otlptracegrpc.WithTimeout(ShutdownTimeout)}
	mo := []otlpmetricgrpc.Option{otlpmetricgrpc.WithEndpoint(ep.host), otlpmetricgrpc.WithTimeout(ShutdownTimeout)}
	lo := []otlploggrpc.Option{otlploggrpc.WithEndpoint(ep.host), otlploggrpc.WithTimeout(ShutdownTimeout)}
	if ep.insecure {
		to, mo, lo = append(to, otlptracegrpc.WithInsecure()), append(mo, otlpmetricgrpc.WithInsecure()), append(lo, otlploggrpc.WithInsecure())
	}
	var ex exporters
	var err error
	if ex.span, err = otlptracegrpc.New(ctx, to...); err != nil {
		return ex, fmt.Errorf("telemetry: %w", err)
	}
	if ex.metric, err = otlpmetricgrpc.New(ctx, mo...); err != nil {
		return ex, fmt.Errorf("telemetry: %w", err)
	}
	if ex.log, err = otlploggrpc.New(ctx, lo...); err != nil {
		return ex, fmt.Errorf("telemetry: %w", err)
	}
	ex.close = func() error { return nil }
	return ex, nil
}

// fileExporters write every signal to path (appended, 0600), one JSON
// object a line: a span, a batch of metrics, a log record.
func fileExporters(path string) (exporters, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return exporters{}, fmt.Errorf("telemetry outfile: %w", err)
	}
	w := &lockedWriter{w: f}
	ex := exporters{close: f.Close}
	if ex.span, err = stdouttrace.New(stdouttrace.WithWriter(w)); err != nil {
		f.Close()
		return ex, fmt.Errorf("telemetry: %w", err)
	}
	if ex.metric, err = stdoutmetric.New(stdoutmetric.WithWriter(w)); err != nil {
		f.Close()
		return ex, fmt.Errorf("telemetry: %w", err)
	}
	if ex.log, err = stdoutlog.New(stdoutlog.WithWriter(w)); err != nil {
		f.Close()
		return ex, fmt.Errorf("telemetry: %w", err)
	}
	return ex, nil
}

// lockedWriter lets the three exporters share one file: each object is
// written whole by one Write.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
