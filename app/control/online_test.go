package control

import (
	"context"
	"errors"
	"strings"
	"testing"

	"tinyrag/app/tool"
)

func TestClassifyNet_TellsNoNetworkFromAnUnreachableServer(t *testing.T) {
	tests := []struct {
		name      string
		online    bool
		serverErr error
		want      NetState
	}{
		{"browser offline", false, errors.New("net/http: fetch() failed: TypeError: Failed to fetch"), NetOffline},
		{"browser offline, server answered (local model down)", false, nil, NetOffline},
		{"online, server gone", true, errors.New("net/http: fetch() failed: TypeError: Failed to fetch"), NetServerDown},
		{"online, server answered, model down", true, nil, NetOnline},
		{"online, server answered with an error", true, errors.New("config: HTTP 500 bad json"), NetOnline},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := classifyNet(tt.online, tt.serverErr); got != tt.want {
				t.Errorf("classifyNet = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestOfflineAware_WebToolsSayOfflineWithoutANetwork(t *testing.T) {
	ran := 0
	inner := tool.Func{ToolName: "url_fetch", Elem: tool.URL, Desc: "fetch", Fn: func(context.Context, string) (tool.Result, error) {
		ran++
		return tool.Result{Content: "page"}, nil
	}}
	online := true
	w := offlineAware(inner, func() bool { return online }, "en")
	if w.Name() != "url_fetch" || w.Element() != tool.URL || w.Description() != "fetch" {
		t.Errorf("wrapper changed the tool's identity: %s %s %s", w.Name(), w.Element(), w.Description())
	}
	if res, err := w.Run(context.Background(), "https://example.org"); err != nil || res.Content != "page" || ran != 1 {
		t.Fatalf("online: %+v, %v, ran %d", res, err, ran)
	}
	online = false
	_, err := w.Run(context.Background(), "https://example.org")
	if err == nil || !strings.HasPrefix(err.Error(), "offline") || ran != 1 {
		t.Errorf("offline: err %v, ran %d; want an offline error without a fetch", err, ran)
	}
}
