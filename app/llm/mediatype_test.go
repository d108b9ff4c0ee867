package llm

import "testing"

func TestMediaType_IsTheLowerCasedTypeWithoutParameters(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"application/json", "application/json"},
		{"Application/JSON; charset=utf-8", "application/json"},
		{" text/event-stream ;charset=UTF-8", "text/event-stream"},
		{"", ""},
	} {
		if got := mediaType(tc.in); got != tc.want {
			t.Errorf("mediaType(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
