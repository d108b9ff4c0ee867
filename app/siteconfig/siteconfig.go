// Package siteconfig reads tinyrag.json, the file a static deployment puts
// next to index.html: the knowledge bundles the site ships, a preset model
// endpoint, optionally a tinyRAG server to use as proxy, and which pages
// may embed the app. `tinyrag static` writes it and `tinyrag serve`
// serves it, so the app learns all of this the same way in both modes.
//
// The file is public: every visitor can read it. So it never carries an API
// key; one found there is ignored and reported, never used.
package siteconfig

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"

	"tinyrag/app/embed"
	"tinyrag/app/knowledge/site"
)

// FileName is the config's name next to index.html.
const FileName = "tinyrag.json"

// Version is the config format version this app reads.
const Version = 1

// Config is a parsed, checked site config.
type Config struct {
	Version int `json:"version"`
	// Bundles are the site's knowledge bundles; URLs are relative to the
	// config's own URL or absolute.
	Bundles []site.Source `json:"bundles,omitempty"`
	// LLM presets the model endpoint visitors start with.
	LLM *LLM `json:"llm,omitempty"`
	// Proxy is the origin of a tinyRAG server whose /api proxies the app
	// uses for the model, url_fetch, websearch and URL imports, or
	// SameOrigin for the server that serves the app. Empty: the app talks
	// to the model directly and those web tools are off.
	Proxy string `json:"proxy,omitempty"`
	// Embed says which pages may embed the app (embed.html, through
	// embed.js) and whether they may submit questions. Absent: none may.
	Embed *embed.Policy `json:"embed,omitempty"`
	// Starters are questions the welcome screen offers visitors, in both
	// views, instead of the app's own suggestions (at most MaxStarters,
	// each at most MaxStarterRunes).
	Starters []string `json:"starters,omitempty"`
}

// Bounds of the starter questions: a welcome screen shows a few short
// questions, not a document.
const (
	MaxStarters     = 8
	MaxStarterRunes = 200
)

// CheckStarters returns the starter questions trimmed and without empty
// ones, or an error naming the first one over the bounds (the commands
// that write tinyrag.json refuse it).
func CheckStarters(ss []string) ([]string, error) {
	kept, warns := cleanStarters(ss)
	if len(warns) > 0 {
		return nil, errors.New(warns[0])
	}
	return kept, nil
}

// CheckStartersLoose is CheckStarters that keeps what is within the
// bounds and reports what it left out, as the app reads tinyrag.json.
func CheckStartersLoose(ss []string) (kept, warns []string) { return cleanStarters(ss) }

// cleanStarters keeps the starters within the bounds and says what it
// left out.
func cleanStarters(ss []string) (kept, warns []string) {
	for i, s := range ss {
		s = strings.Join(strings.Fields(s), " ")
		switch n := utf8.RuneCountInString(s); {
		case n == 0:
			continue
		case n > MaxStarterRunes:
			warns = append(warns, fmt.Sprintf("%s: starters[%d] is %d characters, the limit is %d; it is left out", FileName, i, n, MaxStarterRunes))
		case len(kept) == MaxStarters:
			warns = append(warns, fmt.Sprintf("%s: more than %d starters; starters[%d] and after are left out", FileName, MaxStarters, i))
			return kept, warns
		default:
			kept = append(kept, s)
		}
	}
	return kept, warns
}

// EmbedPolicy is the embedding policy, the empty one (nobody) if the
// config has none.
func (c Config) EmbedPolicy() embed.Policy {
	if c.Embed == nil {
		return embed.Policy{}
	}
	return *c.Embed
}

// SameOrigin as Proxy names the server the app came from (`tinyrag serve`).
const SameOrigin = "/"

// ProxyOrigin is the proxy's origin for a page at pageOrigin, "" for none.
func (c Config) ProxyOrigin(pageOrigin string) string {
	if c.Proxy == SameOrigin {
		return strings.TrimRight(pageOrigin, "/")
	}
	return c.Proxy
}

// LLM is a preset OpenAI-compatible endpoint; never a key.
type LLM struct {
	BaseURL string `json:"base_url"`
	Model   string `json:"model,omitempty"`
}

// secretWords mark fields that would hold a credential: a public file
// must not, so Parse drops them and says so.
var secretWords = []string{"apikey", "token", "secret", "password", "authorization", "bearer"}

// Parse reads a config. Problems that lose nothing (an unknown field, a
// key that is ignored) come back as warnings, to be logged; an unusable
// file is an error, and the app then starts without a site config.
func Parse(data []byte) (Config, []string, error) {
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		return Config{}, nil, fmt.Errorf("%s is not valid JSON: %w", FileName, err)
	}
	var warns []string
	warns = append(warns, secrets(raw, "")...)
	var c Config
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&c); err != nil {
		return Config{}, warns, fmt.Errorf("%s: %w", FileName, err)
	}
	if c.Version != Version {
		return Config{}, warns, fmt.Errorf("%s has version %d; this app reads version %d", FileName, c.Version, Version)
	}
	known := map[string]bool{"version": true, "bundles": true, "llm": true, "proxy": true, "embed": true, "starters": true}
	for _, k := range sortedKeys(raw) {
		if !known[k] && !isSecret(k) {
			warns = append(warns, fmt.Sprintf("%s: unknown field %q ignored", FileName, k))
		}
	}
	for i, b := range c.Bundles {
		if err := checkRelOrHTTP(b.URL); err != nil {
			return Config{}, warns, fmt.Errorf("%s: bundles[%d].url: %w", FileName, i, err)
		}
		if b.SHA256 != "" {
			if s, err := hex.DecodeString(b.SHA256); err != nil || len(s) != 32 {
				return Config{}, warns, fmt.Errorf("%s: bundles[%d].sha256 %q is not a SHA-256 in hex", FileName, i, b.SHA256)
			}
		}
	}
	if c.LLM != nil {
		if err := checkAbsHTTP(c.LLM.BaseURL); err != nil {
			return Config{}, warns, fmt.Errorf("%s: llm.base_url: %w", FileName, err)
		}
		if u, _ := url.Parse(c.LLM.BaseURL); u.User != nil {
			warns = append(warns, fmt.Sprintf("%s: llm.base_url carries credentials; they are ignored (a public file must not hold them)", FileName))
			u.User = nil
			c.LLM.BaseURL = u.String()
		}
	}
	if c.Embed != nil {
		p, err := c.Embed.Check()
		if err != nil {
			return Config{}, warns, fmt.Errorf("%s: %w", FileName, err)
		}
		c.Embed = &p
	}
	var sw []string
	c.Starters, sw = cleanStarters(c.Starters)
	warns = append(warns, sw...)
	if c.Proxy != "" && c.Proxy != SameOrigin {
		if err := checkAbsHTTP(c.Proxy); err != nil {
			return Config{}, warns, fmt.Errorf("%s: proxy: %w", FileName, err)
		}
		c.Proxy = strings.TrimRight(c.Proxy, "/")
	}
	return c, warns, nil
}

// secrets lists the credential-like fields anywhere in v (path: where).
func secrets(v any, path string) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			p := k
			if path != "" {
				p = path + "." + k
			}
			if isSecret(k) {
				out = append(out, fmt.Sprintf("%s: %s looks like an API key or credential and is ignored: this file is public, so every visitor could read it. Each visitor enters their own key in Settings.", FileName, p))
				continue
			}
			out = append(out, secrets(v[k], p)...)
		}
	case []any:
		for i, e := range v {
			out = append(out, secrets(e, fmt.Sprintf("%s[%d]", path, i))...)
		}
	}
	return out
}

// isSecret reports a field name like key, api_key, apiKey, openai-token.
func isSecret(k string) bool {
	k = strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(k))
	for _, w := range secretWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	return strings.HasSuffix(k, "key")
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func checkAbsHTTP(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an absolute http(s) URL", s)
	}
	return nil
}

func checkRelOrHTTP(s string) error {
	if s == "" {
		return errors.New("empty")
	}
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%q: only http(s) or a relative URL", s)
	}
	return nil
}

// Resolve returns the bundles with their URLs made absolute against the
// config's own URL.
func (c Config) Resolve(configURL string) ([]site.Source, error) {
	base, err := url.Parse(configURL)
	if err != nil {
		return nil, fmt.Errorf("config URL %q: %w", configURL, err)
	}
	out := make([]site.Source, len(c.Bundles))
	for i, b := range c.Bundles {
		u, err := base.Parse(b.URL)
		if err != nil {
			return nil, fmt.Errorf("bundle URL %q: %w", b.URL, err)
		}
		out[i] = site.Source{URL: u.String(), SHA256: b.SHA256}
	}
	return out, nil
}

// Marshal encodes a config as written to tinyrag.json.
func (c Config) Marshal() []byte {
	c.Version = Version
	b, _ := json.MarshalIndent(c, "", "  ")
	return append(b, '\n')
}
