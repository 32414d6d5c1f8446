package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// nprocHeadroom is how many processes beyond those the user already runs
// a confined command may start (RLIMIT_NPROC; root is not bound by it).
const nprocHeadroom = 1024

// RunHelper is the Landlock helper, `companion __sandbox SPEC -- ARGV`
// (args are those after HelperCommand; see helperArgs). It confines its
// own thread and then executes the command in its place, so the command
// keeps the helper's pid, process group and standard streams: a private
// temporary folder as TMPDIR, RLIMIT_NPROC, no_new_privs, no capability,
// the Landlock ruleset and the seccomp filter. It returns only when it could not, with
// 125 and one line on standard error.
func RunHelper(args []string) int {
	runtime.LockOSThread() // the restrictions are the thread's; exec keeps them
	if err := confineAndExec(args); err != nil {
		fmt.Fprintf(os.Stderr, "companion sandbox: %v\n", err)
	}
	return 125
}

func confineAndExec(args []string) error {
	sp, argv, err := parseHelperArgs(args)
	if err != nil {
		return err
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return err
	}
	abi, err := landlockABI()
	if err != nil {
		return err
	}
	arch, err := seccompArch()
	if err != nil {
		return err
	}
	filter, err := buildFilter(arch, sp.Network)
	if err != nil {
		return err
	}
	tmp, err := privateTmp()
	if err != nil {
		return err
	}
	limitProcs()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if err := dropCaps(); err != nil {
		return err
	}
	rules := landlockRules(planWrites(sp.Mode, sp.Roots, osLook), tmp, handledFS(abi))
	if err := restrictLandlock(abi, rules, sp.Network); err != nil {
		return err
	}
	if err := installFilter(filter); err != nil {
		return err
	}
	return syscall.Exec(path, argv, withTmp(os.Environ(), tmp))
}

// withTmp is env with TMPDIR set to tmp.
func withTmp(env []string, tmp string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if len(kv) < 7 || kv[:7] != "TMPDIR=" {
			out = append(out, kv)
		}
	}
	return append(out, "TMPDIR="+tmp)
}

// privateTmp makes the command's temporary folder,
// $TMPDIR/companion-sandbox-UID/PID, after removing those of commands whose
// process (and process group) is gone: the helper becomes the command, so
// nothing is left to remove a folder when its command ends.
func privateTmp() (string, error) {
	uid := os.Getuid()
	parent := filepath.Join(os.TempDir(), "companion-sandbox-"+strconv.Itoa(uid))
	if err := os.Mkdir(parent, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("temporary folder: %w", err)
	}
	var st unix.Stat_t
	if err := unix.Lstat(parent, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR || int(st.Uid) != uid {
		return "", fmt.Errorf("temporary folder %s is not a folder of this user", parent)
	}
	pid := os.Getpid()
	ents, _ := os.ReadDir(parent)
	for _, e := range ents {
		if n, err := strconv.Atoi(e.Name()); err == nil && n != pid && gone(n) {
			_ = os.RemoveAll(filepath.Join(parent, e.Name()))
		}
	}
	dir := filepath.Join(parent, strconv.Itoa(pid))
	_ = os.RemoveAll(dir)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", fmt.Errorf("temporary folder: %w", err)
	}
	return dir, nil
}

// gone reports whether neither process pid nor a process group pid is
// left.
func gone(pid int) bool {
	return errors.Is(unix.Kill(pid, 0), unix.ESRCH) && errors.Is(unix.Kill(-pid, 0), unix.ESRCH)
}

// limitProcs lowers RLIMIT_NPROC to the user's processes plus
// nprocHeadroom, so that a fork bomb stops there. Best effort.
func limitProcs() {
	uid := os.Getuid()
	if uid == 0 {
		return
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	n := 0
	for _, e := range ents {
		var st unix.Stat_t
		if _, err := strconv.Atoi(e.Name()); err == nil && unix.Stat("/proc/"+e.Name(), &st) == nil && int(st.Uid) == uid {
			n++
		}
	}
	var lim unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NPROC, &lim) != nil {
		return
	}
	want := uint64(n + nprocHeadroom)
	if lim.Cur > want {
		lim.Cur = want
	}
	if lim.Max > want {
		lim.Max = want
	}
	_ = unix.Setrlimit(unix.RLIMIT_NPROC, &lim)
}
