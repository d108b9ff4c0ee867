//go:build !js

package nanogo_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"tinyrag/app/nanogo"
	"tinyrag/app/tool"
)

func TestTool_RunsSourceThroughTheRunner(t *testing.T) {
	tests := []struct {
		name, src   string
		timeout     time.Duration
		wantContent string // prefix of the result content
		wantErr     string // "" for success
		wantTimeout bool
	}{
		{"prints 4", "fmt.Println(2 + 2)", 0, "4\n", "", false},
		{"stderr is labelled", "fmt.Println(1)\npanic(\"x\")", 0, "1\n[stderr]\n", "panic: x", false},
		{"forbidden import fails with the reason", "import \"net/http\"\nhttp.Get(\"http://127.0.0.1/\")", 0,
			"(no output)", `import "net/http" is not allowed`, false},
		{"panic fails and keeps output", "fmt.Println(\"so far\")\npanic(\"boom\")", 0, "so far\n", "panic: boom", false},
		{"infinite loop fails at the timeout", "for {}", 400 * time.Millisecond, "(no output)", "did not finish within 400ms", true},
		{"flood is truncated and says so", "for i := 0; i < 20000; i++ { fmt.Println(\"0123456789\") }", 0,
			"0123456789\n", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := nanogo.Tool(childRunner("nanogo-child", tt.timeout))
			res, err := tl.Run(context.Background(), tt.src)
			if !strings.HasPrefix(res.Content, tt.wantContent) {
				t.Errorf("Content = %.60q…, want prefix %q", res.Content, tt.wantContent)
			}
			if res.Source != "nanogo" {
				t.Errorf("Source = %q, want nanogo", res.Source)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("err = %v, want none", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("err = %v, want it to contain %q", err, tt.wantErr)
			}
			if errors.Is(err, nanogo.ErrTimeout) != tt.wantTimeout {
				t.Errorf("errors.Is(err, ErrTimeout) = %v, want %v", !tt.wantTimeout, tt.wantTimeout)
			}
		})
	}
}

func TestTool_TruncatedOutputEndsWithTheMarker(t *testing.T) {
	res, err := nanogo.Tool(childRunner("nanogo-child", 0)).Run(context.Background(),
		"for i := 0; i < 20000; i++ { fmt.Println(\"0123456789\") }")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(res.Content, nanogo.TruncatedMarker) {
		t.Errorf("Content ends %q, want the marker", res.Content[len(res.Content)-30:])
	}
	if len(res.Content) > nanogo.DefaultMaxOutput+len(nanogo.TruncatedMarker)+1 {
		t.Errorf("Content is %d bytes, past the %d bound", len(res.Content), nanogo.DefaultMaxOutput)
	}
}

func TestTool_DisabledToolIsNotOfferedToTheModel(t *testing.T) {
	reg := tool.NewRegistry(nanogo.Tool(childRunner("nanogo-child", 0)))
	reg.SetEnabled("nanogo", false)
	if strings.Contains(reg.Manifest(), "nanogo") {
		t.Errorf("manifest offers the disabled tool:\n%s", reg.Manifest())
	}
	if tl, enabled := reg.Lookup("nanogo"); tl == nil || enabled {
		t.Errorf("Lookup = %v, %v; want the tool, disabled (so the call is skipped as disabled)", tl, enabled)
	}
	reg.SetEnabled("nanogo", true)
	if !strings.Contains(reg.Manifest(), `<tool name="nanogo"><source>`) {
		t.Errorf("manifest lacks the enabled tool:\n%s", reg.Manifest())
	}
}

func TestTool_RefusesOversizedSourceWithoutRunning(t *testing.T) {
	src := "fmt.Println(1)\n" + strings.Repeat("//", nanogo.DefaultMaxSource)
	_, err := nanogo.Tool(nanogo.ChildRunner{}).Run(context.Background(), src)
	if err == nil || !strings.Contains(err.Error(), "byte limit") {
		t.Errorf("err = %v, want the size refusal", err)
	}
}
