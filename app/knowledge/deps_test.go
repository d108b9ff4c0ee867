//go:build !js

package knowledge_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// bleve's top-level package links the upsidedown index and protobuf, about
// 2.5 MB of gzip in app.wasm that the knowledge base never uses; it talks to
// scorch directly instead. This keeps it that way.
func TestPackage_DoesNotLinkBleveTopLevelOrUpsidedown(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	cmd := exec.Command("go", "list", "-deps", "tinyrag/app/knowledge")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps failed, so the dependency graph cannot be checked: %v", err)
	}
	for _, pkg := range []string{"github.com/blevesearch/bleve/v2", "github.com/blevesearch/bleve/v2/index/upsidedown", "google.golang.org/protobuf/proto"} {
		for _, line := range strings.Split(string(out), "\n") {
			if line == pkg {
				t.Errorf("app/knowledge depends on %s", pkg)
			}
		}
	}
}
