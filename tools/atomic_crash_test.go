//go:build unix

package tools

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"companion/internal/testkit/testio"
)

// crashChildEnv, when set to a path, makes TestWriteFileAtomicCrash act as
// the child: it rewrites that file with WriteFileAtomic until killed.
const crashChildEnv = "COMPANION_ATOMIC_CRASH_CHILD"

// crashContent is one of the two big contents (4 MiB) the child alternates
// between.
func crashContent(tag byte) []byte {
	filler := bytes.Repeat([]byte{tag}, 48)
	b := make([]byte, 0, 4<<20+64)
	for i := 0; len(b) < 4<<20; i++ {
		b = append(b, tag, ' ')
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, ' ')
		b = append(b, filler...)
		b = append(b, '\n')
	}
	return b
}

// TestWriteFileAtomicCrash kills a process with SIGKILL while it rewrites a
// big file with WriteFileAtomic, several times, and checks that the file is
// then exactly the old or the new content, never a torn mix.
func TestWriteFileAtomicCrash(t *testing.T) {
	contents := [2][]byte{crashContent('a'), crashContent('b')}
	if path := os.Getenv(crashChildEnv); path != "" {
		crashChild(path, contents)
		return
	}
	path := filepath.Join(testio.RealTempDir(t), "big.txt")
	testio.WriteFile(t, path, contents[0])
	for run := range 5 {
		killMidWrite(t, path, run%3+1)
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if !bytes.Equal(got, contents[0]) && !bytes.Equal(got, contents[1]) {
			t.Fatalf("run %d: file is torn: %d bytes, neither content", run, len(got))
		}
		temps, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".big.txt.companion-*"))
		t.Logf("run %d: file intact (%c), %d temporary files left by the killed write", run, got[0], len(temps))
	}
}

// killMidWrite starts the child and kills it with SIGKILL as soon as it
// says it is starting its write number n.
func killMidWrite(t *testing.T, path string, n int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriteFileAtomicCrash$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if i, ok := strings.CutPrefix(sc.Text(), "writing "); ok {
			if k, _ := strconv.Atoi(i); k >= n {
				break
			}
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child was not killed by SIGKILL: %v (it should write until killed)", err)
	}
}

// crashChild rewrites path with the two contents in turn, announcing each
// write on stdout, until it is killed (or, as a safety net, 500 writes).
func crashChild(path string, contents [2][]byte) {
	for i := 1; i <= 500; i++ {
		fmt.Fprintf(os.Stdout, "writing %d\n", i)
		if err := WriteFileAtomic(path, contents[i%2], 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "write: %v\n", err)
			os.Exit(3)
		}
	}
	os.Exit(0)
}
