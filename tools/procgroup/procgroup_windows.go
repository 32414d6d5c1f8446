//go:build windows

package procgroup

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"

	"golang.org/x/sys/windows"
)

// Attr starts a command in a new process group, so a Ctrl-C (or
// Ctrl-Break) meant for companion's console does not reach it.
func Attr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
}

// withAttr adds Attr's flag to a command's own attributes (such as the raw
// command line cmd.exe needs).
func withAttr(a *syscall.SysProcAttr) *syscall.SysProcAttr {
	if a == nil {
		return Attr()
	}
	a.CreationFlags |= windows.CREATE_NEW_PROCESS_GROUP
	return a
}

// Terminate ends the process tree rooted at pid. Console programs on
// Windows have no SIGTERM to be asked with, so this is Kill.
func Terminate(pid int) error { return Kill(pid) }

// Kill ends the process tree rooted at pid at once: `taskkill /T /F`
// walks the parent links from pid, so it reaches the children the command
// started while the command is alive; where taskkill cannot run, the
// process itself is killed.
func Kill(pid int) error {
	kill := exec.Command(taskkill(), "/T", "/F", "/PID", strconv.Itoa(pid))
	kill.SysProcAttr = &syscall.SysProcAttr{HideWindow: true}
	if err := kill.Run(); err == nil {
		return nil
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

// taskkill is taskkill.exe in the system folder, found without PATH.
func taskkill() string {
	if dir, err := windows.GetSystemDirectory(); err == nil && dir != "" {
		return dir + `\taskkill.exe`
	}
	return "taskkill.exe"
}

// Alive reports whether the process pid is still running. Windows keeps no
// process groups a command's children could be found by once it exits, so
// only the command itself is seen.
func Alive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return false
	}
	return code == stillActive
}

// stillActive is the exit code GetExitCodeProcess reports for a process
// that has not ended (STILL_ACTIVE).
const stillActive = 259
