//go:build !js

package nanogo

import (
	"strings"
	"testing"
)

func TestChildEnv_CarriesNothingOfTheParent(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-must-not-leak")
	t.Setenv("HOME", "/home/someone")
	t.Setenv("TZ", "Europe/Berlin")
	env := childEnv(256 << 20)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GOTRACEBACK", "GOMAXPROCS", "GOMEMLIMIT", "TZ":
		default:
			t.Errorf("child environment has %q", kv)
		}
	}
	if !strings.Contains(strings.Join(env, " "), "TZ=Europe/Berlin") {
		t.Errorf("child environment %v lacks the time zone", env)
	}
}
