//go:build !linux && !js

package nanogo

import "os/exec"

// isolate kills just the child where process groups are not set up; the
// sandbox child starts no processes of its own.
func isolate(cmd *exec.Cmd) {
	cmd.Cancel = func() error { return cmd.Process.Kill() }
}
