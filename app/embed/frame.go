package embed

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ErrNotAllowed is wrapped by every refusal to run embedded: the view
// shows the message and opens no storage.
var ErrNotAllowed = errors.New("this site does not allow tinyRAG to be embedded here")

// Frame is what the app can see of where it runs. A server sends
// frame-ancestors with embed.html, but a static host cannot, so the app checks
// its embedding itself with what the browser tells it.
type Frame struct {
	// Self is the app's own origin (location.origin).
	Self string
	// Top is true when the app is the top-level page, not in a frame.
	Top bool
	// Ancestors is location.ancestorOrigins, the parent first and the
	// top-level page last. Browsers that lack it (Firefox) leave
	// HasAncestors false.
	Ancestors    []string
	HasAncestors bool
	// Referrer is document.referrer: for a frame, the page that loaded
	// it, which is the parent. It is the fallback without Ancestors.
	Referrer string
}

// Embedder returns the origin of the page the app is embedded in, the
// one the bridge hears and answers; "" when the app is the top-level page
// (nobody to talk to). A page is allowed when the policy lists its origin
// or it is the app's own origin. Every ancestor must be allowed, as
// frame-ancestors demands: an allowed page framed by a foreign one is
// refused too. Without ancestorOrigins only the parent can be checked, by
// the referrer; a parent that sends none cannot be told apart from a
// foreign page and is refused.
func (f Frame) Embedder(p Policy) (string, error) {
	if f.Top {
		return "", nil
	}
	allowed := func(o string) bool { return o == f.Self || p.Allows(o) }
	if f.HasAncestors {
		if len(f.Ancestors) == 0 {
			return "", fmt.Errorf("%w: the browser names no page around the frame", ErrNotAllowed)
		}
		for _, o := range f.Ancestors {
			if !allowed(o) {
				return "", fmt.Errorf("%w: the page at %s is not one of this site's embedding origins", ErrNotAllowed, describe(o))
			}
		}
		return f.Ancestors[0], nil
	}
	if f.Referrer == "" {
		return "", fmt.Errorf("%w: the embedding page sends no referrer (Referrer-Policy: no-referrer) and this browser does not name it otherwise, so tinyRAG cannot check that it is allowed", ErrNotAllowed)
	}
	o, err := referrerOrigin(f.Referrer)
	if err != nil || !allowed(o) {
		return "", fmt.Errorf("%w: the page at %s is not one of this site's embedding origins", ErrNotAllowed, describe(o))
	}
	return o, nil
}

// referrerOrigin is the origin of a referrer URL (which browsers often cut
// to the origin already).
func referrerOrigin(ref string) (string, error) {
	u, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	return NormalizeOrigin(u.Scheme + "://" + u.Host)
}

func describe(origin string) string {
	if origin == "" || origin == "null" {
		return "an opaque origin (a sandboxed frame or a file)"
	}
	return origin
}

// StoragePrefix is the start of the name of every IndexedDB database and
// localStorage key the app uses when embedded by the page at embedder
// (from Frame.Embedder; "" when /embed is opened as a page of its own).
// Browsers that partition storage by top-level site already keep an
// embed's data apart from the full app's, but not all do, and a host on
// the app's own site is not partitioned at all: the prefix is what keeps
// an embed's chats and imports out of the full app's stores, and one
// host's out of another's. The full app's names (tinyrag-chats,
// tinyrag-knowledge, tinyrag.settings) never start with it.
func StoragePrefix(embedder string) string {
	return "tinyrag-embed(" + strings.ToLower(embedder) + ")-"
}
