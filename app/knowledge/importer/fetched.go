package importer

import (
	"fmt"
	"mime"
	"net/url"
	"strings"
)

// FromFetched imports a fetched web resource: the body and Content-Type
// from the server's fetch proxy, or a raw response. The media type picks the
// format, with the URL's extension deciding for generic types (text/plain,
// application/octet-stream, none), so a raw .md or .csv stays structured.
// A charset parameter is honoured when the body is not valid UTF-8.
// Source is the URL; the title falls back to the last path segment or host.
func FromFetched(rawURL, contentType string, body []byte) (Document, error) {
	if int64(len(body)) > DefaultLimit {
		return Document{}, tooLarge(rawURL, DefaultLimit)
	}
	media, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		media = strings.ToLower(strings.TrimSpace(strings.Split(contentType, ";")[0]))
	}
	typ, err := typeFromMedia(rawURL, media, body)
	if err != nil {
		return Document{}, err
	}
	doc, err := convert(rawURL, typ, body, params["charset"])
	if err != nil {
		return Document{}, err
	}
	if doc.Title == baseName(rawURL) {
		doc.Title = urlTitle(rawURL)
	}
	return doc, nil
}

// mediaTypes maps specific media types to document types.
var mediaTypes = map[string]string{
	"text/html": TypeHTML, "application/xhtml+xml": TypeHTML,
	"text/markdown": TypeMarkdown, "text/x-markdown": TypeMarkdown,
	"text/csv": TypeCSV, "text/tab-separated-values": TypeCSV,
	"application/json": TypeJSON, "application/x-ndjson": TypeJSON, "application/ld+json": TypeJSON,
	"application/xml": TypeXML, "text/xml": TypeXML, "application/rss+xml": TypeXML, "application/atom+xml": TypeXML,
	"application/pdf": TypePDF,
}

func typeFromMedia(rawURL, media string, body []byte) (string, error) {
	if typ, ok := mediaTypes[media]; ok {
		return typ, nil
	}
	switch {
	case strings.HasSuffix(media, "+json"):
		return TypeJSON, nil
	case strings.HasSuffix(media, "+xml"):
		return TypeXML, nil
	case strings.HasPrefix(media, "image/"), strings.HasPrefix(media, "audio/"),
		strings.HasPrefix(media, "video/"), strings.HasPrefix(media, "font/"):
		return "", fmt.Errorf("%s: %w: %s", rawURL, ErrUnsupported, media)
	}
	// Generic or unknown: the URL path's extension, then the content.
	name := rawURL
	if u, err := url.Parse(rawURL); err == nil && u.Path != "" {
		name = u.Path
	}
	typ, err := detectType(name, body)
	if err != nil {
		return "", fmt.Errorf("%s: %w", rawURL, unwrapName(err, name))
	}
	if typ == TypePDF && strings.HasPrefix(string(body[:min(len(body), 5)]), "%PDF-") {
		return TypePDF, nil
	}
	if media == "text/plain" && typ != TypeMarkdown && typ != TypeCSV && typ != TypeLog && typ != TypeJSON && typ != TypeXML {
		// text/plain from the fetch proxy is already extracted text; do not
		// re-interpret it as HTML because it happens to start with a tag.
		return TypeText, nil
	}
	return typ, nil
}

// unwrapName strips the "name: " prefix detectType put on its error so the
// URL can name the resource instead.
func unwrapName(err error, name string) error {
	msg := strings.TrimPrefix(err.Error(), name+": ")
	return wrapMsg{msg: msg, err: err}
}

type wrapMsg struct {
	msg string
	err error
}

func (w wrapMsg) Error() string { return w.msg }
func (w wrapMsg) Unwrap() error { return w.err }

// urlTitle is the last non-empty path segment, else the host.
func urlTitle(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return rawURL
	}
	if seg := baseName(strings.TrimRight(u.Path, "/")); seg != "" {
		if s, err := url.PathUnescape(seg); err == nil {
			return s
		}
		return seg
	}
	if u.Host != "" {
		return u.Host
	}
	return rawURL
}
