package mcp

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"companion/tools/procgroup"
)

// The real servers come from npm, installed into testdata/npm by
// `make test-mcp-deps` (npm ci there). Without them these tests skip.

// npmServer returns the entry script of an installed @modelcontextprotocol
// server package, skipping the test when node or the package is missing.
func npmServer(t *testing.T, pkg string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed; the MCP servers from npm need it")
	}
	script, err := filepath.Abs(filepath.Join("testdata", "npm", "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(script); err != nil {
		t.Skipf("%s is not installed: run `make test-mcp-deps` (npm ci in tools/mcp/testdata/npm)", pkg)
	}
	return script
}

// everythingTools are tools of server-everything the tests rely on.
var everythingTools = []string{"mcp_everything_echo", "mcp_everything_get_tiny_image", "mcp_everything_get_sum",
	"mcp_everything_get_resource_reference", "mcp_everything_get_resource_links",
	"mcp_everything_get_structured_content", readResourceName, listResourcesName}

func TestEverythingStdio(t *testing.T) {
	script := npmServer(t, "server-everything")
	cfg := ServerConfig{Name: "everything", Command: "node", Args: []string{script, "stdio"}}
	m := startManager(t, []ServerConfig{cfg}, testOptions(t, nil))
	if !m.WaitReady(context.Background(), 30*time.Second) {
		t.Fatal("server-everything did not start")
	}
	if st := status(t, m, "everything"); st.State != StateReady {
		t.Fatalf("status = %+v", st)
	}
	for _, name := range everythingTools {
		findTool(t, m, name)
	}
	checkEverythingTools(t, m)
	checkEverythingPrompts(t, m)
	checkEverythingResources(t, m)
	// The server registers its task tools once initialized, and says so
	// with notifications/tools/list_changed.
	waitFor(t, "the tools added after initialize", func() bool { return hasTool(m, "mcp_everything_simulate_research_query") })
}

// checkEverythingTools calls tools returning text, an image, an embedded
// resource, resource links and structured content.
func checkEverythingTools(t *testing.T, m *Manager) {
	t.Helper()
	echo := findTool(t, m, "mcp_everything_echo")
	if s := string(echo.Schema()); !strings.Contains(s, `"message":{`) || !strings.Contains(s, `"required":["message"]`) ||
		echo.Description() != "Echoes back the input string" {
		t.Errorf("echo schema %s, description %q", s, echo.Description())
	}
	if res := run(t, m, "mcp_everything_echo", map[string]string{"message": "hi"}); res.Text != "Echo: hi" || res.IsError {
		t.Errorf("echo = %+v", res)
	}
	if res := run(t, m, "mcp_everything_get_sum", map[string]int{"a": 2, "b": 3}); !strings.Contains(res.Text, "5") {
		t.Errorf("get-sum = %+v", res)
	}
	res := run(t, m, "mcp_everything_get_tiny_image", nil)
	if len(res.Images) != 1 || res.Images[0].MIMEType != "image/png" || len(res.Images[0].Data) == 0 ||
		!strings.Contains(res.Text, "[image: image/png") {
		t.Errorf("get-tiny-image = %q with %d images", res.Text, len(res.Images))
	}
	res = run(t, m, "mcp_everything_get_resource_reference", map[string]any{"resourceType": "Text", "resourceId": 1})
	if !strings.Contains(res.Text, "[resource demo://resource/dynamic/text/1]") {
		t.Errorf("get-resource-reference = %+v", res)
	}
	res = run(t, m, "mcp_everything_get_resource_links", map[string]any{"count": 2})
	if strings.Count(res.Text, "[resource link: demo://") != 2 {
		t.Errorf("get-resource-links = %+v", res)
	}
	res = run(t, m, "mcp_everything_get_structured_content", map[string]string{"location": "New York"})
	if !strings.Contains(res.Text, "temperature") || res.Raw == nil || res.IsError {
		t.Errorf("get-structured-content = %+v", res)
	}
	res = run(t, m, "mcp_everything_echo", map[string]any{"message": 5})
	if !res.IsError {
		t.Errorf("echo with a number = %+v, want an error result", res)
	}
}

// checkEverythingPrompts lists prompts and renders two.
func checkEverythingPrompts(t *testing.T, m *Manager) {
	t.Helper()
	found := map[string]Prompt{}
	for _, p := range m.Prompts() {
		found[p.Name] = p
	}
	args, ok := found["args-prompt"]
	if _, simple := found["simple-prompt"]; !ok || !simple {
		t.Fatalf("prompts = %+v", m.Prompts())
	}
	if len(args.Arguments) != 2 || args.Arguments[0].Name != "city" || !args.Arguments[0].Required {
		t.Errorf("args-prompt arguments = %+v", args.Arguments)
	}
	text, err := m.GetPrompt(context.Background(), "everything", "args-prompt", map[string]string{"city": "Paris"})
	if err != nil || !strings.Contains(text, "Paris") {
		t.Errorf("args-prompt = %q, %v", text, err)
	}
	text, err = m.GetPrompt(context.Background(), "everything", "simple-prompt", nil)
	if err != nil || text == "" {
		t.Errorf("simple-prompt = %q, %v", text, err)
	}
}

// checkEverythingResources lists resources and reads one directly and
// through mcp_read_resource.
func checkEverythingResources(t *testing.T, m *Manager) {
	t.Helper()
	rs, err := m.ListResources(context.Background())
	if err != nil || len(rs) == 0 {
		t.Fatalf("ListResources = %v, %v", rs, err)
	}
	uri := rs[0].URI
	contents, err := m.ReadResource(context.Background(), "everything", uri)
	if err != nil || len(contents) == 0 || contents[0].URI != uri {
		t.Fatalf("ReadResource(%s) = %+v, %v", uri, contents, err)
	}
	res := run(t, m, readResourceName, map[string]string{"server": "everything", "uri": "demo://resource/dynamic/text/1"})
	if res.IsError || !strings.HasPrefix(res.Text, "[resource demo://resource/dynamic/text/1]\n") {
		t.Errorf("mcp_read_resource = %+v", res)
	}
}

func TestEverythingStreamableHTTP(t *testing.T) {
	script := npmServer(t, "server-everything")
	url := startNodeHTTP(t, script, "streamableHttp") + "/mcp"
	cfg := ServerConfig{Name: "everything", URL: url, Transport: TransportHTTP, Headers: map[string]string{"X-Test": "1"}}
	m := startManager(t, []ServerConfig{cfg}, testOptions(t, nil))
	if !m.WaitReady(context.Background(), 30*time.Second) {
		t.Fatal("server-everything over HTTP did not connect")
	}
	if st := status(t, m, "everything"); st.State != StateReady || st.Transport != TransportHTTP || st.PID != 0 {
		t.Fatalf("status = %+v", st)
	}
	if res := run(t, m, "mcp_everything_echo", map[string]string{"message": "over http"}); res.Text != "Echo: over http" {
		t.Errorf("echo = %+v", res)
	}
	res := run(t, m, "mcp_everything_get_tiny_image", nil)
	if len(res.Images) != 1 || res.Images[0].MIMEType != "image/png" {
		t.Errorf("get-tiny-image = %q with %d images", res.Text, len(res.Images))
	}
	if text, err := m.GetPrompt(context.Background(), "everything", "args-prompt", map[string]string{"city": "Oslo"}); err != nil ||
		!strings.Contains(text, "Oslo") {
		t.Errorf("args-prompt = %q, %v", text, err)
	}
}

func TestEverythingSSE(t *testing.T) {
	script := npmServer(t, "server-everything")
	url := startNodeHTTP(t, script, "sse") + "/sse"
	cfg := ServerConfig{Name: "everything", URL: url, Transport: TransportSSE}
	m := startManager(t, []ServerConfig{cfg}, testOptions(t, nil))
	if !m.WaitReady(context.Background(), 30*time.Second) {
		t.Fatal("server-everything over SSE did not connect")
	}
	if res := run(t, m, "mcp_everything_echo", map[string]string{"message": "over sse"}); res.Text != "Echo: over sse" {
		t.Errorf("echo = %+v", res)
	}
}

// startNodeHTTP runs server-everything in mode (streamableHttp, sse) on a
// free port of 127.0.0.1 and returns its base URL once it accepts
// connections. The server is killed when the test ends.
func startNodeHTTP(t *testing.T, script, mode string) string {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command("node", script, mode)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	cmd.SysProcAttr = procgroup.Attr()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		procgroup.Kill(cmd.Process.Pid)
		_ = cmd.Wait()
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	waitFor(t, "server-everything listening on "+addr, func() bool {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			_ = c.Close()
		}
		return err == nil
	})
	return "http://" + addr
}

// freePort returns a port of 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestFilesystemServer(t *testing.T) {
	script := npmServer(t, "server-filesystem")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello from a file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := ServerConfig{Name: "fs", Command: "node", Args: []string{script, dir}, Cwd: dir,
		IncludeTools: []string{"read_text_file", "list_directory", "write_file"}, ExcludeTools: []string{"write_file"}}
	m := startManager(t, []ServerConfig{cfg}, testOptions(t, nil))
	if !m.WaitReady(context.Background(), 30*time.Second) {
		t.Fatal("server-filesystem did not start")
	}
	if got := toolNames(m); strings.Join(got, ",") != "mcp_fs_list_directory,mcp_fs_read_text_file" {
		t.Errorf("tools = %v, want only the included ones", got)
	}
	res := run(t, m, "mcp_fs_read_text_file", map[string]string{"path": filepath.Join(dir, "hello.txt")})
	if res.IsError || !strings.Contains(res.Text, "hello from a file") {
		t.Errorf("read_text_file = %+v", res)
	}
	res = run(t, m, "mcp_fs_read_text_file", map[string]string{"path": "/etc/passwd"})
	if !res.IsError {
		t.Errorf("read outside the allowed directory = %+v, want an error result", res)
	}
}
