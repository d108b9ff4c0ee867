package nanogo

import (
	"os/exec"
	"syscall"
)

// isolate puts the child in its own process group, so the kill reaches
// anything it started, and has the kernel kill it if the parent dies.
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
