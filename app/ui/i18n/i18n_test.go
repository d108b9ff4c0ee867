package i18n

import "testing"

func TestT_GermanAndFallbacks(t *testing.T) {
	if T("de", "new_chat") != "Neuer Chat" || T("en", "new_chat") != "New chat" {
		t.Error("translations of new_chat wrong")
	}
	if T("de", "no-such-key") != "no-such-key" {
		t.Error("a missing key must read as itself")
	}
	for k, v := range texts {
		if v[0] == "" || v[1] == "" {
			t.Errorf("key %q lacks a translation: %q", k, v)
		}
	}
}
