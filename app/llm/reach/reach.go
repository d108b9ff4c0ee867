// Package reach explains, in words and with the fix, why the browser
// could not reach a model endpoint directly: a mixed-content block, a CORS
// refusal (with the setting for Ollama, LM Studio or llama.cpp), a server
// that is not there. In the browser a CORS refusal and a dead server both
// surface as the same opaque fetch TypeError; the wasm glue (probe_js.go)
// tells them apart with a second, no-cors request, whose answer is opaque
// but which succeeds whenever the server answered at all. The reasoning
// here is plain Go and tested natively.
package reach

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"tinyrag/app/llm"
)

// Kind is the cause found.
type Kind int

// The causes Diagnose tells apart.
const (
	// Unknown: the error is not a reachability problem Diagnose knows
	// (it is shown as it is).
	Unknown Kind = iota
	// MixedContent: an https page may not call an http endpoint.
	MixedContent
	// CORS: the server answered but did not allow this page's origin.
	CORS
	// Network: nothing answered at that address.
	Network
	// Auth: the server answered 401/403: a key is missing or wrong.
	Auth
)

// Facts is what the app observed.
type Facts struct {
	// PageOrigin is the page's origin, e.g. "https://docs.example.org".
	PageOrigin string
	// Endpoint is the model's base URL, e.g. "http://127.0.0.1:11434/v1".
	Endpoint string
	// Err is the request's error.
	Err error
	// Probed says a no-cors probe ran; ProbeAnswered is its outcome.
	Probed, ProbeAnswered bool
}

// Diagnosis is the explanation shown to the user.
type Diagnosis struct {
	Kind Kind
	// Server is the product the endpoint looks like ("Ollama", "LM
	// Studio", "llama.cpp") or "".
	Server string
	// Problem says what happened; Fix says what to do.
	Problem, Fix string
}

// String is the whole explanation.
func (d Diagnosis) String() string {
	if d.Fix == "" {
		return d.Problem
	}
	return d.Problem + "\n" + d.Fix
}

// IsFetchFailure reports whether err is the browser's opaque network
// failure (no HTTP answer reached Go), as opposed to an HTTP status or a
// broken stream, which need no diagnosis.
func IsFetchFailure(err error) bool {
	if err == nil {
		return false
	}
	var he *llm.HTTPError
	var se *llm.StreamError
	if errors.As(err, &he) || errors.As(err, &se) {
		return false
	}
	s := err.Error()
	return strings.Contains(s, "TypeError") || strings.Contains(s, "Failed to fetch") ||
		strings.Contains(s, "NetworkError") || strings.Contains(s, "fetch() failed")
}

// NeedsProbe reports whether a no-cors probe would tell more: the request
// failed opaquely and mixed content does not explain it already.
func NeedsProbe(pageOrigin, endpoint string, err error) bool {
	return IsFetchFailure(err) && !mixedContent(pageOrigin, endpoint)
}

// Diagnose explains f.
func Diagnose(f Facts) Diagnosis {
	server := Guess(f.Endpoint)
	var he *llm.HTTPError
	switch {
	case errors.As(f.Err, &he) && (he.Status == 401 || he.Status == 403):
		return Diagnosis{Kind: Auth, Server: server,
			Problem: fmt.Sprintf("%s refused the request (HTTP %d): it needs an API key, or the key is wrong.", f.Endpoint, he.Status),
			Fix:     "Enter the key for this endpoint in Settings."}
	case mixedContent(f.PageOrigin, f.Endpoint):
		return Diagnosis{Kind: MixedContent, Server: server,
			Problem: fmt.Sprintf("This page is served over https, so the browser blocks requests to the plain-http endpoint %s (mixed content).", f.Endpoint),
			Fix:     "Use an https address for the model (for example behind a TLS reverse proxy), run the model on this computer (http://127.0.0.1 is allowed), or open the app over http."}
	case !IsFetchFailure(f.Err):
		return Diagnosis{Kind: Unknown, Server: server, Problem: errString(f.Err)}
	case f.Probed && f.ProbeAnswered:
		return Diagnosis{Kind: CORS, Server: server,
			Problem: fmt.Sprintf("%s answered, but does not allow requests from this page (%s): the browser blocked the reply (CORS).", f.Endpoint, f.PageOrigin),
			Fix:     corsFix(server, f.PageOrigin)}
	case f.Probed:
		return Diagnosis{Kind: Network, Server: server,
			Problem: fmt.Sprintf("Nothing answered at %s.", f.Endpoint),
			Fix:     "Check that the model server is running and the address and port are right" + startHint(server) + "."}
	}
	return Diagnosis{Kind: Unknown, Server: server,
		Problem: fmt.Sprintf("The browser could not reach %s: either nothing answers there, or the server does not allow requests from this page (CORS).", f.Endpoint),
		Fix:     corsFix(server, f.PageOrigin)}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// corsFix names the setting that lets this origin in.
func corsFix(server, origin string) string {
	ollama := fmt.Sprintf("Ollama: start it with OLLAMA_ORIGINS=%s (for example `OLLAMA_ORIGINS=%s ollama serve`).", origin, origin)
	lmstudio := "LM Studio: switch on \"Enable CORS\" in the server settings of its Developer tab."
	llamacpp := "llama.cpp: start llama-server with its CORS option for this origin where your version has one (see llama-server --help)."
	proxy := "Or use a tinyRAG server as proxy (`tinyrag serve --llm-url …`)."
	// One fix a line: the app shows them as a list to pick from.
	switch server {
	case "Ollama":
		return ollama + "\n" + proxy
	case "LM Studio":
		return lmstudio + "\n" + proxy
	case "llama.cpp":
		return llamacpp + "\n" + proxy
	}
	return "Allow this origin (" + origin + ") in the model server:\n" + ollama + "\n" + lmstudio + "\n" + llamacpp + "\n" + proxy
}

func startHint(server string) string {
	switch server {
	case "Ollama":
		return " (`ollama serve`)"
	case "LM Studio":
		return " (LM Studio: Developer tab, start the server)"
	case "llama.cpp":
		return " (`llama-server -m MODEL`)"
	}
	return ""
}

// Guess names the product an endpoint probably is, by its default port.
func Guess(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return ""
	}
	switch u.Port() {
	case "11434":
		return "Ollama"
	case "1234":
		return "LM Studio"
	case "8080":
		if isLoopback(u.Hostname()) {
			return "llama.cpp"
		}
	}
	return ""
}

// mixedContent: an https page calling http on a host that is not this
// computer (browsers treat http://127.0.0.1 and localhost as secure).
func mixedContent(pageOrigin, endpoint string) bool {
	p, err1 := url.Parse(pageOrigin)
	e, err2 := url.Parse(endpoint)
	if err1 != nil || err2 != nil {
		return false
	}
	return p.Scheme == "https" && e.Scheme == "http" && !isLoopback(e.Hostname())
}

func isLoopback(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Explain diagnoses a failed request to the model at endpoint from a page
// at pageOrigin, probing the endpoint (no-cors) when that tells more.
func Explain(ctx context.Context, pageOrigin, endpoint string, err error) Diagnosis {
	f := Facts{PageOrigin: pageOrigin, Endpoint: endpoint, Err: err}
	if NeedsProbe(pageOrigin, endpoint, err) {
		f.Probed, f.ProbeAnswered = true, probe(ctx, strings.TrimRight(endpoint, "/")+"/models")
	}
	return Diagnose(f)
}
