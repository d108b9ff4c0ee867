package prefs

import (
	"encoding/json"
	"testing"
	"time"
)

func TestSettings_NormalizedRepairsBadValues(t *testing.T) {
	d := DefaultSettings()
	tests := []struct {
		name  string
		in    Settings
		check func(Settings) bool
	}{
		{"unknown theme falls back to dark", Settings{Theme: "neon"}, func(s Settings) bool { return s.Theme == "dark" }},
		{"known theme kept", Settings{Theme: "dracula"}, func(s Settings) bool { return s.Theme == "dracula" }},
		{"unknown interface language is English", Settings{Lang: "fr"}, func(s Settings) bool { return s.Lang == "en" }},
		{"German kept", Settings{Lang: "de"}, func(s Settings) bool { return s.Lang == "de" }},
		{"unknown answer language is automatic", Settings{AnswerLang: "Klingon"}, func(s Settings) bool { return s.AnswerLang == "" }},
		{"zero caps mean defaults", Settings{}, func(s Settings) bool {
			return s.MaxToolsTotal == d.MaxToolsTotal && s.MaxContinuations == d.MaxContinuations && s.ToolTimeoutSec == d.ToolTimeoutSec
		}},
		{"caps are clamped", Settings{MaxToolsTotal: -3, MaxToolsPerRound: 999}, func(s Settings) bool { return s.MaxToolsTotal == 1 && s.MaxToolsPerRound == 10 }},
		{"persona without a name is dropped, dangling selection cleared",
			Settings{Personas: []Persona{{Name: "  ", Prompt: "x"}, {Name: "A", Prompt: "be brief"}}, Persona: "gone"},
			func(s Settings) bool { return len(s.Personas) == 1 && s.Persona == "" }},
		{"endpoint trimmed", Settings{Endpoint: "  http://127.0.0.1:11434/v1 "}, func(s Settings) bool { return s.Endpoint == "http://127.0.0.1:11434/v1" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.in.Normalized(); !tc.check(got) {
				t.Errorf("Normalized(%+v) = %+v", tc.in, got)
			}
		})
	}
}

func TestSettings_RoundTripThroughJSONKeepsChoices(t *testing.T) {
	s := DefaultSettings()
	s.Theme, s.Lang, s.Debug, s.NoWebSearch, s.Persona = "nord", "de", true, true, "Teacher"
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var got Settings
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	got = got.Normalized()
	if got.Theme != "nord" || got.Lang != "de" || !got.Debug || !got.NoWebSearch || got.PersonaPrompt() == "" {
		t.Errorf("after round trip: %+v", got)
	}
}

func TestSettings_EngineConfig(t *testing.T) {
	s := Settings{MaxToolsTotal: 2, MaxToolsPerRound: 1, MaxContinuations: 4, ToolTimeoutSec: 7}.Normalized()
	c := s.EngineConfig()
	if c.MaxToolsTotal != 2 || c.MaxToolsPerRound != 1 || c.MaxContinuations != 4 || c.ToolTimeout != 7*time.Second {
		t.Errorf("EngineConfig = %+v", c)
	}
}
