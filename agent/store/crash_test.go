package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// crashEnv switches the test binary into the crash child: the value is
// the state dir the child writes session crashID in.
const (
	crashEnv   = "COMPANION_STORE_CRASH_CHILD"
	crashID    = "crash"
	crashEvery = 5 // the child syncs every crashEvery records
)

// seqData is the payload of the child's records.
type seqData struct {
	I   int    `json:"i"`
	Pad string `json:"pad"`
}

// TestCrashChild is the child process of TestCrashSafety, not a test of its
// own: it resumes session crashID and appends numbered records, some of
// them large, until killed, printing "synced <i>" after every Sync.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv(crashEnv)
	if dir == "" {
		t.Skip("child process of TestCrashSafety")
	}
	s := Open(dir, nil)
	_, recs, err := s.Load(crashID)
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.Append(crashID)
	if err != nil {
		t.Fatal(err)
	}
	out := bufio.NewWriter(os.Stdout)
	small, large := strings.Repeat("p", 400), strings.Repeat("L", 192<<10)
	for i := len(recs); ; i++ {
		pad := small[:200+rand.IntN(200)]
		if rand.IntN(6) == 0 {
			pad = large[:64<<10+rand.IntN(128<<10)] // long writes tear more easily
		}
		data, _ := json.Marshal(seqData{I: i, Pad: pad})
		if err := w.Append(Record{Type: "seq", Data: data}); err != nil {
			t.Fatal(err)
		}
		if (i+1)%crashEvery == 0 {
			if err := w.Sync(); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(out, "synced %d\n", i)
			out.Flush()
		}
	}
}

func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	s, logs := newTestStore(t)
	create(t, s, crashID, testCwd("crash")).Close()
	stateDir := strings.TrimSuffix(s.root, string(os.PathSeparator)+"sessions")
	const rounds = 6
	for round := range rounds {
		synced := runAndKill(t, stateDir, 1+rand.IntN(6))
		_, recs, err := s.Load(crashID)
		if err != nil {
			t.Fatalf("round %d: Load after kill: %v", round, err)
		}
		if len(recs) <= synced {
			t.Fatalf("round %d: %d records, but record %d was synced", round, len(recs), synced)
		}
		for i, r := range recs {
			var d seqData
			if err := json.Unmarshal(r.Data, &d); err != nil || d.I != i || r.Type != "seq" {
				t.Fatalf("round %d: record %d is %s %d (%v)", round, i, r.Type, d.I, err)
			}
		}
		checkTornTail(t, s, round)
		t.Logf("round %d: synced through %d, loaded %d records", round, synced, len(recs))
	}
	t.Logf("store log:\n%s", logs)
}

// runAndKill runs the crash child until it has reported n syncs, lets it
// run a moment longer, kills it with SIGKILL and returns the last record
// it reported synced.
func runAndKill(t *testing.T, stateDir string, n int) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+stateDir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	synced := -1
	sc := bufio.NewScanner(stdout)
	for reports := 0; reports < n && sc.Scan(); {
		if v, ok := strings.CutPrefix(sc.Text(), "synced "); ok {
			synced, _ = strconv.Atoi(v)
			reports++
		}
	}
	// Kill at a random point of the following writes, not at a sync.
	time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
	cmd.Process.Kill() // SIGKILL on Unix
	cmd.Wait()
	if synced < 0 {
		t.Fatalf("the child reported no sync; stderr:\n%s", stderr.String())
	}
	return synced
}

// checkTornTail asserts that every line of the log but the last is
// complete and well-formed.
func checkTornTail(t *testing.T, s *Store, round int) {
	t.Helper()
	dir, _ := s.locate(crashID)
	raw, err := os.ReadFile(logPath(dir, crashID))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(raw, []byte{'\n'})
	var p parser
	for i, l := range lines[1 : len(lines)-1] {
		if _, err := p.parse(l); err != nil {
			t.Fatalf("round %d: line %d of %d is damaged: %v", round, i+2, len(lines), err)
		}
	}
	if tail := lines[len(lines)-1]; len(tail) > 0 {
		t.Logf("round %d: torn last line of %d bytes", round, len(tail))
	}
}
