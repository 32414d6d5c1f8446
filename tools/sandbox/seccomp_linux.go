package sandbox

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// Seccomp return values and struct seccomp_data offsets.
const (
	secRetAllow = 0x7fff0000
	secRetErrno = 0x00050000
	secOffNr    = 0
	secOffArch  = 4
	secOffArg0  = 16 // low 32 bits on little-endian machines
	secOffArg1  = 24
	// x32Bit marks the x32 system call numbers on amd64.
	x32Bit = 0x40000000
)

// seccompArch is the audit architecture of GOARCH, or an error where the
// filter is not built.
func seccompArch() (uint32, error) {
	switch runtime.GOARCH {
	case "amd64":
		return unix.AUDIT_ARCH_X86_64, nil
	case "arm64":
		return unix.AUDIT_ARCH_AARCH64, nil
	}
	return 0, fmt.Errorf("no seccomp filter for %s", runtime.GOARCH)
}

// label is a place in a filter under construction.
type label int

// The filter's shared endings.
const (
	lAllow label = iota
	lENOSYS
	lEPERM
	lEACCES
	lSocket
	lIoctl
)

// filterAsm builds a classic BPF program whose jumps go to labels.
type filterAsm struct {
	ins []bpf.Instruction
	// jumps records, per instruction index, the labels a jump goes to.
	jumps  map[int][2]label
	labels map[label]int
}

func (a *filterAsm) add(i bpf.Instruction) { a.ins = append(a.ins, i) }

// jump adds "if A cond val goto yes else goto no".
func (a *filterAsm) jump(cond bpf.JumpTest, val uint32, yes, no label) {
	a.jumps[len(a.ins)] = [2]label{yes, no}
	a.add(bpf.JumpIf{Cond: cond, Val: val})
}

func (a *filterAsm) mark(l label) { a.labels[l] = len(a.ins) }

// resolve fills in the jumps' offsets (forward only, as BPF requires).
func (a *filterAsm) resolve() ([]bpf.Instruction, error) {
	for at, to := range a.jumps {
		j := a.ins[at].(bpf.JumpIf)
		yes, no := a.labels[to[0]]-at-1, a.labels[to[1]]-at-1
		if yes < 0 || no < 0 || yes > 255 || no > 255 {
			return nil, errors.New("seccomp filter: bad jump")
		}
		j.SkipTrue, j.SkipFalse = uint8(yes), uint8(no)
		a.ins[at] = j
	}
	return a.ins, nil
}

// buildFilter is the seccomp filter of the Landlock backend. Always: no
// setsid or setpgid (a process leaving the command's process group would
// escape the group kill at timeout and at companion's death), no TIOCSTI
// or TIOCLINUX (keystrokes pushed into a terminal), and nothing from a
// foreign system call table (x32, 32-bit). Without network: socket()
// only for AF_UNIX, and no io_uring (which can create sockets bypassing
// seccomp). Refused calls fail with an errno; nothing is killed.
func buildFilter(arch uint32, network bool) ([]bpf.Instruction, error) {
	a := &filterAsm{jumps: map[int][2]label{}, labels: map[label]int{}}
	next := label(100)
	step := func(cond bpf.JumpTest, val uint32, yes label) {
		a.jump(cond, val, yes, next)
		a.mark(next)
		next++
	}
	a.add(bpf.LoadAbsolute{Off: secOffArch, Size: 4})
	a.jump(bpf.JumpEqual, arch, next, lENOSYS)
	a.mark(next)
	next++
	a.add(bpf.LoadAbsolute{Off: secOffNr, Size: 4})
	if arch == unix.AUDIT_ARCH_X86_64 {
		step(bpf.JumpGreaterOrEqual, x32Bit, lENOSYS)
	}
	step(bpf.JumpEqual, unix.SYS_SETSID, lEPERM)
	step(bpf.JumpEqual, unix.SYS_SETPGID, lEPERM)
	step(bpf.JumpEqual, unix.SYS_IOCTL, lIoctl)
	if !network {
		step(bpf.JumpEqual, unix.SYS_IO_URING_SETUP, lEPERM)
		step(bpf.JumpEqual, unix.SYS_SOCKET, lSocket)
	}
	a.add(bpf.RetConstant{Val: secRetAllow})
	a.mark(lIoctl)
	a.add(bpf.LoadAbsolute{Off: secOffArg1, Size: 4})
	step(bpf.JumpEqual, unix.TIOCSTI, lEPERM)
	step(bpf.JumpEqual, unix.TIOCLINUX, lEPERM)
	a.add(bpf.RetConstant{Val: secRetAllow})
	a.mark(lSocket)
	a.add(bpf.LoadAbsolute{Off: secOffArg0, Size: 4})
	a.jump(bpf.JumpEqual, unix.AF_UNIX, lAllow, lEACCES)
	a.mark(lAllow)
	a.add(bpf.RetConstant{Val: secRetAllow})
	a.mark(lEACCES)
	a.add(bpf.RetConstant{Val: secRetErrno | uint32(unix.EACCES)})
	a.mark(lEPERM)
	a.add(bpf.RetConstant{Val: secRetErrno | uint32(unix.EPERM)})
	a.mark(lENOSYS)
	a.add(bpf.RetConstant{Val: secRetErrno | uint32(unix.ENOSYS)})
	return a.resolve()
}

// installFilter loads the filter on the calling thread (locked to it; the
// command it executes next inherits it). The thread must have
// no_new_privs set.
func installFilter(prog []bpf.Instruction) error {
	raw, err := bpf.Assemble(prog)
	if err != nil {
		return fmt.Errorf("seccomp filter: %w", err)
	}
	filter := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		filter[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	fprog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	runtime.KeepAlive(filter)
	return nil
}
