package webapp

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
)

// dist is the build output of `make build` (server/webapp/dist/web,
// written by server/precompress): the wasm, the stylesheet and the icons,
// each precompressed. Embedding it makes the binary the deployment.
//
//go:embed all:dist
var dist embed.FS

// QuickBuild is make build-dev's note (server/webapp/dist/quick-build),
// or "" in a build for deployment (make build).
func QuickBuild() string {
	b, err := dist.ReadFile("dist/quick-build")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// embeddedAssets reads the embedded /web/ tree.
func embeddedAssets() (*staticAssets, error) {
	webRoot, err := fs.Sub(dist, "dist")
	if err != nil {
		return nil, err
	}
	assets, err := loadStatic(webRoot, "web")
	if err != nil {
		return nil, fmt.Errorf("reading embedded assets: %w", err)
	}
	return assets, nil
}
