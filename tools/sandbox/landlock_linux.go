package sandbox

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock access rights, by the ABI version that added them.
const (
	llFSv1 uint64 = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR |
		unix.LANDLOCK_ACCESS_FS_REMOVE_FILE | unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR |
		unix.LANDLOCK_ACCESS_FS_MAKE_REG | unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO |
		unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK | unix.LANDLOCK_ACCESS_FS_MAKE_SYM
	llRead uint64 = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	// llFile are the rights that apply to a file (not a folder).
	llFile uint64 = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	llDevice uint64 = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE
	llOutput uint64 = unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE
	llNetTCP uint64 = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
	llScoped uint64 = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
)

// devices are the null-like devices a confined command may write.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/random", "/dev/urandom"}

// landlockABI returns the kernel's Landlock ABI version, or an error
// saying why there is none.
func landlockABI() (int, error) {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		if errors.Is(errno, unix.ENOSYS) || errors.Is(errno, unix.EOPNOTSUPP) {
			return 0, errors.New("the kernel has no Landlock (or it is disabled at boot)")
		}
		return 0, fmt.Errorf("landlock: %w", errno)
	}
	return int(v), nil
}

// rulesetAttr is struct landlock_ruleset_attr (ABI 6 and later; earlier
// kernels accept it with the fields they lack left zero).
type rulesetAttr struct {
	fs, net, scoped uint64
}

// handledFS is every file system right ABI abi knows.
func handledFS(abi int) uint64 {
	h := llFSv1
	if abi >= 2 {
		h |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		h |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		h |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	return h
}

// llRule grants access beneath path (to the file itself when it is not a
// folder).
type llRule struct {
	path   string
	access uint64
}

// landlockRules are the rules for the writable hierarchies and the
// private folder tmp: read and execute everywhere, write to those, to tmp, to the null-like
// devices and to the files standard output and error already are.
func landlockRules(writable []string, tmp string, handled uint64) []llRule {
	full := handled &^ unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	rules := []llRule{{"/", llRead}, {tmp, full}}
	for _, p := range writable {
		rules = append(rules, llRule{p, full})
	}
	for _, d := range devices {
		rules = append(rules, llRule{d, llDevice})
	}
	for _, fd := range []string{"/proc/self/fd/1", "/proc/self/fd/2"} {
		if st, err := os.Stat(fd); err == nil && st.Mode().IsRegular() {
			rules = append(rules, llRule{fd, llOutput})
		}
	}
	return rules
}

// restrictLandlock confines the calling thread (locked to it; the command
// it executes next inherits the domain): rules for the file system, no TCP
// bind or connect unless network (ABI 4), no signals or abstract sockets
// out of the domain (ABI 6). Paths that do not exist are skipped. The
// thread must have no_new_privs set.
func restrictLandlock(abi int, rules []llRule, network bool) error {
	attr := rulesetAttr{fs: handledFS(abi)}
	if abi >= 4 && !network {
		attr.net = llNetTCP
	}
	if abi >= 6 {
		attr.scoped = llScoped
	}
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return fmt.Errorf("landlock_create_ruleset: %w", errno)
	}
	defer unix.Close(int(fd))
	for _, r := range rules {
		if err := addRule(int(fd), r, attr.fs); err != nil {
			return err
		}
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); errno != 0 {
		return fmt.Errorf("landlock_restrict_self: %w", errno)
	}
	return nil
}

// addRule adds r to the ruleset, its rights cut to those handled and, for
// a file, to those that apply to files.
func addRule(ruleset int, r llRule, handled uint64) error {
	fd, err := unix.Open(r.path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENXIO) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("landlock: open %s: %w", r.path, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("landlock: stat %s: %w", r.path, err)
	}
	access := r.access & handled
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		access &= llFile
	}
	if access == 0 {
		return nil
	}
	attr := unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(fd)}
	_, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH,
		uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
	runtime.KeepAlive(&attr)
	if errno != 0 {
		return fmt.Errorf("landlock_add_rule %s: %w", r.path, errno)
	}
	return nil
}
