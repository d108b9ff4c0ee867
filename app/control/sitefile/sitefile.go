// Package sitefile reads the files a site publishes for the app — its
// tinyrag.json and the files of its knowledge bundles — whole and bounded:
// a wrong URL must not fill the page's memory. In the browser, without a
// client of the caller's, a file comes as one ArrayBuffer from fetch()
// (whole_js.go); otherwise through app/httpdo.
package sitefile

import (
	"context"
	"fmt"
	"io"

	"tinyrag/app/httpdo"
)

// maxConfig and maxBundleFile bound what is read for tinyrag.json and for
// one file of a bundle. A bundle's largest files are the term shards of
// the commonest words of a large site.
const (
	maxConfig     = 1 << 20
	maxBundleFile = 64 << 20
)

// Config reads the site's tinyrag.json at u with c (nil: the platform's
// way); status is the HTTP status (404: the site has none).
func Config(ctx context.Context, c httpdo.Doer, u string) (data []byte, status int, err error) {
	return get(ctx, c, u, maxConfig)
}

// BundleFile reads one file of a knowledge bundle at u with c (nil: the
// platform's way); status is the HTTP status (404: the file is gone).
func BundleFile(ctx context.Context, c httpdo.Doer, u string) (data []byte, status int, err error) {
	return get(ctx, c, u, maxBundleFile)
}

// get GETs u and returns its body, at most limit bytes; a status other
// than 200 is an error naming it.
func get(ctx context.Context, c httpdo.Doer, u string, limit int64) ([]byte, int, error) {
	if c == nil {
		return getWhole(ctx, u, limit)
	}
	return getWith(ctx, c, u, limit)
}

// getWith is get through c.
func getWith(ctx context.Context, c httpdo.Doer, u string, limit int64) ([]byte, int, error) {
	req, err := httpdo.NewRequest(ctx, "GET", u, nil)
	if err != nil {
		return nil, 0, err
	}
	resp, err := httpdo.Or(c).Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return nil, resp.StatusCode, fmt.Errorf("GET %s: HTTP %d", u, resp.StatusCode)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, resp.StatusCode, fmt.Errorf("GET %s: %w", u, err)
	}
	if int64(len(b)) > limit {
		return nil, resp.StatusCode, fmt.Errorf("GET %s: larger than %d MB", u, limit>>20)
	}
	return b, resp.StatusCode, nil
}
