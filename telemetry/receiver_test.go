package telemetry_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	colmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// received is what a test collector got: the decoded signals and every
// request's bytes (to search for text that must not be there).
type received struct {
	mu      sync.Mutex
	spans   []*tracepb.ResourceSpans
	metrics []*metricspb.ResourceMetrics
	logs    []*logspb.ResourceLogs
	raw     bytes.Buffer
}

func (r *received) add(raw []byte, m proto.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.raw.Write(raw)
	switch v := m.(type) {
	case *coltrace.ExportTraceServiceRequest:
		r.spans = append(r.spans, v.ResourceSpans...)
	case *colmetrics.ExportMetricsServiceRequest:
		r.metrics = append(r.metrics, v.ResourceMetrics...)
	case *collogs.ExportLogsServiceRequest:
		r.logs = append(r.logs, v.ResourceLogs...)
	}
}

// recvHTTP is an OTLP/HTTP (protobuf) collector; its URL is the endpoint.
func recvHTTP(t *testing.T) (*received, string) {
	r := &received{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		var m, resp proto.Message
		switch req.URL.Path {
		case "/v1/traces":
			m, resp = &coltrace.ExportTraceServiceRequest{}, &coltrace.ExportTraceServiceResponse{}
		case "/v1/metrics":
			m, resp = &colmetrics.ExportMetricsServiceRequest{}, &colmetrics.ExportMetricsServiceResponse{}
		case "/v1/logs":
			m, resp = &collogs.ExportLogsServiceRequest{}, &collogs.ExportLogsServiceResponse{}
		default:
			t.Errorf("collector: unexpected path %s", req.URL.Path)
			http.NotFound(w, req)
			return
		}
		if err := proto.Unmarshal(body, m); err != nil {
			t.Errorf("collector: %s: %v", req.URL.Path, err)
			http.Error(w, err.Error(), 400)
			return
		}
		r.add(body, m)
		out, _ := proto.Marshal(resp)
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return r, srv.URL
}

// grpcCollector implements the three OTLP gRPC services.
type grpcCollector struct {
	coltrace.UnimplementedTraceServiceServer
	colmetrics.UnimplementedMetricsServiceServer
	collogs.UnimplementedLogsServiceServer
	r *received
}

func (g *grpcCollector) keep(m proto.Message) {
	raw, _ := proto.Marshal(m)
	g.r.add(raw, m)
}

func (g *grpcCollector) Export(_ context.Context, req *coltrace.ExportTraceServiceRequest) (*coltrace.ExportTraceServiceResponse, error) {
	g.keep(req)
	return &coltrace.ExportTraceServiceResponse{}, nil
}

type grpcMetrics struct{ *grpcCollector }

func (g grpcMetrics) Export(_ context.Context, req *colmetrics.ExportMetricsServiceRequest) (*colmetrics.ExportMetricsServiceResponse, error) {
	g.keep(req)
	return &colmetrics.ExportMetricsServiceResponse{}, nil
}

type grpcLogs struct{ *grpcCollector }

func (g grpcLogs) Export(_ context.Context, req *collogs.ExportLogsServiceRequest) (*collogs.ExportLogsServiceResponse, error) {
	g.keep(req)
	return &collogs.ExportLogsServiceResponse{}, nil
}

// recvGRPC is an OTLP gRPC collector; its address is the endpoint.
func recvGRPC(t *testing.T) (*received, string) {
	r := &received{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	g := &grpcCollector{r: r}
	coltrace.RegisterTraceServiceServer(srv, g)
	colmetrics.RegisterMetricsServiceServer(srv, grpcMetrics{g})
	collogs.RegisterLogsServiceServer(srv, grpcLogs{g})
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(ln) }()
	t.Cleanup(func() { srv.Stop(); <-done })
	return r, "http://" + ln.Addr().String()
}
