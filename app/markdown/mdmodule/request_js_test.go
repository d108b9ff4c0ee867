//go:build js && wasm

package mdmodule

import (
	"reflect"
	"syscall/js"
	"testing"

	"tinyrag/app/markdown/answer"
)

func TestRequest_CrossesToMarkdownWasmUnchanged(t *testing.T) {
	tests := []struct {
		name string
		req  Request
	}{
		{"text only", Request{Text: "**hi** <b>", Options: answer.Options{Lang: "en"}}},
		{"cards and every option", Request{
			Text: "A <tool name=\"calculate\"><expression>1+1</expression></tool> ü",
			Cards: []answer.Card{{Start: 2, End: 60, ID: "call_1", Tool: "calculate", Input: "1+1",
				Status: "error", Result: "2", Error: "boom"}},
			Options: answer.Options{AllowRun: true, Lang: "de", Streaming: true,
				Expanded:  map[string]bool{"call_1": true},
				CiteLinks: []string{"https://example.test/a#:~:text=x", ""}, CiteTarget: "_top"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RequestFrom(tt.req.JS()); !reflect.DeepEqual(got, tt.req) {
				t.Errorf("crossed as\n%#v\nwant\n%#v", got, tt.req)
			}
		})
	}
}

func TestRequestFrom_ReadsWhatIsMissingAsEmpty(t *testing.T) {
	for _, v := range []js.Value{js.Undefined(), js.Null(), js.ValueOf("text"), js.ValueOf(map[string]any{"cards": 3, "options": "x"})} {
		if got := RequestFrom(v); !reflect.DeepEqual(got, Request{}) {
			t.Errorf("RequestFrom(%v) = %#v, want the zero request", v, got)
		}
	}
}
