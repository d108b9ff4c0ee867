//go:build !js

package nanogo_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The main app wasm imports app/nanogo; the interpreter must stay in the
// worker wasm, so this package may not depend on yaegi on any platform.
func TestPackage_DoesNotPullInTheInterpreter(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		for _, pkg := range []string{"tinyrag/app/nanogo", "tinyrag/app/nanogo/sandbox"} {
			cmd := exec.Command("go", "list", "-deps", pkg)
			cmd.Env = append(os.Environ(), env...)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go list -deps failed, so the dependency graph cannot be checked: %v", err)
			}
			hasYaegi := strings.Contains(string(out), "github.com/traefik/yaegi/interp")
			if want := strings.HasSuffix(pkg, "/sandbox"); hasYaegi != want {
				t.Errorf("%v %s depends on yaegi: %v, want %v", env, pkg, hasYaegi, want)
			}
		}
	}
}
