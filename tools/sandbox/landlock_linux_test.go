package sandbox

import (
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"

	"companion/internal/testkit/testio"
)

// seccompData is struct seccomp_data as the filter reads it (the bpf VM
// loads words big-endian, so each word is written so).
func seccompData(arch, nr uint32, args ...uint32) []byte {
	b := make([]byte, 64)
	binary.BigEndian.PutUint32(b[secOffNr:], nr)
	binary.BigEndian.PutUint32(b[secOffArch:], arch)
	for i, a := range args {
		binary.BigEndian.PutUint32(b[secOffArg0+8*i:], a)
	}
	return b
}

// TestFilter runs the seccomp filter on system calls in the bpf VM.
func TestFilter(t *testing.T) {
	arch, err := seccompArch()
	if err != nil {
		t.Skip(err)
	}
	errno := func(e unix.Errno) int { return int(secRetErrno | uint32(e)) }
	tests := []struct {
		name    string
		network bool
		data    []byte
		want    int
	}{
		{"read", false, seccompData(arch, unix.SYS_READ), secRetAllow},
		{"socket inet", false, seccompData(arch, unix.SYS_SOCKET, unix.AF_INET), errno(unix.EACCES)},
		{"socket inet6", false, seccompData(arch, unix.SYS_SOCKET, unix.AF_INET6), errno(unix.EACCES)},
		{"socket packet", false, seccompData(arch, unix.SYS_SOCKET, unix.AF_PACKET), errno(unix.EACCES)},
		{"socket netlink", false, seccompData(arch, unix.SYS_SOCKET, unix.AF_NETLINK), errno(unix.EACCES)},
		{"socket unix", false, seccompData(arch, unix.SYS_SOCKET, unix.AF_UNIX), secRetAllow},
		{"socket inet with network", true, seccompData(arch, unix.SYS_SOCKET, unix.AF_INET), secRetAllow},
		{"io_uring", false, seccompData(arch, unix.SYS_IO_URING_SETUP), errno(unix.EPERM)},
		{"io_uring with network", true, seccompData(arch, unix.SYS_IO_URING_SETUP), secRetAllow},
		{"setsid", true, seccompData(arch, unix.SYS_SETSID), errno(unix.EPERM)},
		{"setpgid", true, seccompData(arch, unix.SYS_SETPGID), errno(unix.EPERM)},
		{"TIOCSTI", true, seccompData(arch, unix.SYS_IOCTL, 0, unix.TIOCSTI), errno(unix.EPERM)},
		{"TCGETS", true, seccompData(arch, unix.SYS_IOCTL, 0, unix.TCGETS), secRetAllow},
		{"foreign arch", true, seccompData(arch+1, unix.SYS_READ), errno(unix.ENOSYS)},
	}
	if arch == unix.AUDIT_ARCH_X86_64 {
		tests = append(tests, struct {
			name    string
			network bool
			data    []byte
			want    int
		}{"x32 socket", false, seccompData(arch, x32Bit|unix.SYS_SOCKET, unix.AF_INET), errno(unix.ENOSYS)})
	}
	for _, tt := range tests {
		prog, err := buildFilter(arch, tt.network)
		if err != nil {
			t.Fatal(err)
		}
		vm, err := bpf.NewVM(prog)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := vm.Run(tt.data); err != nil || got != tt.want {
			t.Errorf("%s: filter returns %#x, %v; want %#x", tt.name, got, err, tt.want)
		}
	}
}

// landlockSandbox is a sandbox forced onto Landlock with this test binary
// as its helper, or a skip where the kernel lacks Landlock.
func landlockSandbox(t *testing.T, m Mode, network bool) *Sandbox {
	t.Helper()
	s := &Sandbox{Mode: m, Network: network, Force: Landlock, Helper: os.Args[0]}
	if err := s.Available(); err != nil {
		t.Skipf("Landlock cannot run here: %v", err)
	}
	if b := s.Backend(); b.Name != Landlock {
		t.Fatalf("Backend = %+v, want landlock", b)
	}
	return s
}

// TestLandlockHelper runs commands through the helper and checks each by
// its side effect: writes land only in writable entries and TMPDIR, the
// protected paths and everything outside stay untouched, TCP connections
// reach the listener only with network.
func TestLandlockHelper(t *testing.T) {
	base := t.TempDir()
	root, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{".git/hooks", ".companion", "src", "../outside"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[core]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ln := testio.Listen(t, false)
	port := ln.Port
	script := strings.Join([]string{"touch src/ok", "echo x > $TMPDIR/t && touch src/tmp-ok", "touch top", "touch .git/hooks/x",
		"echo x >> .git/config", "touch .companion/x", "touch " + filepath.Join(outside, "x"),
		fmt.Sprintf("(exec 3<>/dev/tcp/127.0.0.1/%d)", port), "true"}, "; ")
	for _, network := range []bool{false, true} {
		before := ln.Accepted()
		s := landlockSandbox(t, WorkspaceWrite, network)
		argv, err := s.Wrap([]string{root}, []string{"bash", "-c", script})
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("helper: %v\n%s", err, out)
		}
		for p, want := range map[string]bool{"src/ok": true, "src/tmp-ok": true, "top": false, ".git/hooks/x": false,
			".companion/x": false, "../outside/x": false} {
			if _, err := os.Stat(filepath.Join(root, p)); (err == nil) != want {
				t.Errorf("network %v: %s exists %v, want %v", network, p, err == nil, want)
			}
		}
		if b, _ := os.ReadFile(filepath.Join(root, ".git", "config")); string(b) != "[core]\n" {
			t.Errorf(".git/config was written: %q", b)
		}
		if n := ln.Accepted() - before; (n > 0) != network {
			t.Errorf("network %v: %d connections reached the listener", network, n)
		}
	}
}

// TestLandlockNote says what Landlock cannot do when a command failed on
// a denial.
func TestLandlockNote(t *testing.T) {
	s := landlockSandbox(t, WorkspaceWrite, false)
	note := s.Note(true, "touch: cannot touch 'x': Permission denied")
	for _, want := range []string{"workspace-write sandbox", "network access is blocked", "Landlock", "$TMPDIR", ".git/hooks"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q lacks %q", note, want)
		}
	}
}

// TestWrapWithNetwork: WrapWith's Network opens the network for one
// command, under each backend, and leaves the sandbox's own setting alone.
func TestWrapWithNetwork(t *testing.T) {
	root := t.TempDir()
	for _, s := range []*Sandbox{{Mode: ReadOnly, Force: Bwrap}, {Mode: ReadOnly, Force: Landlock, Helper: os.Args[0]}} {
		if err := s.Available(); err != nil {
			t.Logf("%s cannot run here: %v", s.Force, err)
			continue
		}
		closed, _ := s.Wrap([]string{root}, []string{"true"})
		open, _ := s.WrapWith([]string{root}, []string{"true"}, WrapOpts{Network: true})
		again, _ := s.Wrap([]string{root}, []string{"true"})
		isOpen := func(argv []string) bool {
			return !slices.Contains(argv, "--unshare-net") && !slices.Contains(argv, "net=off")
		}
		if isOpen(closed) || !isOpen(open) || isOpen(again) {
			t.Errorf("%s: network open %v, %v, %v; want false, true, false", s.Force, isOpen(closed), isOpen(open), isOpen(again))
		}
	}
}
