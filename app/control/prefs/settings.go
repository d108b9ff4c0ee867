// Package prefs is what the user configures in tinyRAG: the settings, their
// defaults and repairs, and the engine configuration they make.
package prefs

import (
	"strings"
	"time"

	"tinyrag/app/engine"
)

// SettingsKey is the localStorage key of the persisted settings (JSON).
// Tests may seed it before the app starts.
const SettingsKey = "tinyrag.settings"

// Themes are the built-in colour themes; the id is the <html data-theme>
// value tinyrag.css styles.
var Themes = []struct{ ID, Name string }{
	{"dark", "Dark"}, {"light", "Light"}, {"nord", "Nord"},
	{"solarized", "Solarized"}, {"monokai", "Monokai"}, {"dracula", "Dracula"},
}

// AnswerLanguages are the choices for the language of answers; "" lets the
// model follow the question.
var AnswerLanguages = []string{"", "English", "German"}

// Persona is a named system prompt.
type Persona struct {
	Name   string `json:"name"`
	Prompt string `json:"prompt"`
}

// Settings is everything the user configures. The zero value of a field
// means its default, so settings saved by an older version still load.
type Settings struct {
	// Endpoint is an OpenAI-compatible base URL; empty uses the server's
	// /api/llm proxy.
	Endpoint string `json:"endpoint"`
	// APIKey is sent to Endpoint as a bearer token. It is kept in this
	// browser's localStorage only (see the warning in Settings).
	APIKey string `json:"api_key,omitempty"`
	Model  string `json:"model"`

	Personas []Persona `json:"personas"`
	Persona  string    `json:"persona"` // name of the active persona, "" none

	Theme      string `json:"theme"`
	Lang       string `json:"lang"`        // interface: "en" or "de"
	AnswerLang string `json:"answer_lang"` // "", "English", "German"

	AllowNanoGo bool `json:"allow_nanogo"`
	NoWebSearch bool `json:"no_web_search"` // auto web search is on unless this is set
	Debug       bool `json:"debug"`

	MaxToolsTotal    int `json:"max_tools_total"`
	MaxToolsPerRound int `json:"max_tools_per_round"`
	MaxContinuations int `json:"max_continuations"`
	ToolTimeoutSec   int `json:"tool_timeout_sec"`
}

// DefaultSettings are the settings of a first run.
func DefaultSettings() Settings {
	d := engine.DefaultConfig()
	return Settings{
		Theme:            "dark",
		Lang:             "en",
		Personas:         []Persona{{Name: "Concise", Prompt: "Answer briefly and precisely. Use bullet points when listing."}, {Name: "Teacher", Prompt: "Explain step by step, with a simple example, for a curious beginner."}},
		MaxToolsTotal:    d.MaxToolsTotal,
		MaxToolsPerRound: d.MaxToolsPerRound,
		MaxContinuations: d.MaxContinuations,
		ToolTimeoutSec:   int(d.ToolTimeout / time.Second),
	}
}

// Normalized returns s with unknown values replaced by defaults and caps
// kept in sane ranges, so a hand-edited or old record cannot break the app.
func (s Settings) Normalized() Settings {
	d := DefaultSettings()
	s.Endpoint = strings.TrimSpace(s.Endpoint)
	if !validTheme(s.Theme) {
		s.Theme = d.Theme
	}
	if s.Lang != "de" {
		s.Lang = "en"
	}
	okLang := false
	for _, l := range AnswerLanguages {
		okLang = okLang || l == s.AnswerLang
	}
	if !okLang {
		s.AnswerLang = ""
	}
	clamp := func(v *int, def, lo, hi int) {
		switch {
		case *v == 0:
			*v = def
		case *v < lo:
			*v = lo
		case *v > hi:
			*v = hi
		}
	}
	clamp(&s.MaxToolsTotal, d.MaxToolsTotal, 1, 20)
	clamp(&s.MaxToolsPerRound, d.MaxToolsPerRound, 1, 10)
	clamp(&s.MaxContinuations, d.MaxContinuations, 1, 10)
	clamp(&s.ToolTimeoutSec, d.ToolTimeoutSec, 1, 300)
	var ps []Persona
	for _, p := range s.Personas {
		p.Name = strings.TrimSpace(p.Name)
		if p.Name != "" {
			ps = append(ps, p)
		}
	}
	s.Personas = ps
	if s.persona() == nil {
		s.Persona = ""
	}
	return s
}

func validTheme(id string) bool {
	for _, t := range Themes {
		if t.ID == id {
			return true
		}
	}
	return false
}

func (s Settings) persona() *Persona {
	for i := range s.Personas {
		if s.Personas[i].Name == s.Persona {
			return &s.Personas[i]
		}
	}
	return nil
}

// PersonaPrompt is the active persona's system prompt, or "".
func (s Settings) PersonaPrompt() string {
	if p := s.persona(); p != nil {
		return p.Prompt
	}
	return ""
}

// EngineConfig turns the caps into the engine's configuration.
func (s Settings) EngineConfig() engine.Config {
	c := engine.DefaultConfig()
	c.MaxToolsTotal = s.MaxToolsTotal
	c.MaxToolsPerRound = s.MaxToolsPerRound
	c.MaxContinuations = s.MaxContinuations
	c.ToolTimeout = time.Duration(s.ToolTimeoutSec) * time.Second
	return c
}
