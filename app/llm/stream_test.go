package llm

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fixtures in testdata/ are hand-written reproductions of what each
// server sends for the same short reply ("Grüße 👋 — 3 × 4 = 12.", with
// thinking text where the server separates it). They keep each server's
// quirks: OpenAI's "usage":null on every chunk and a usage-only final chunk
// with empty choices, Ollama's "reasoning" field, llama.cpp's null content,
// \u escapes, usage+timings on the finish chunk and its "error:" field,
// LM Studio's reasoning_content, vLLM sending reasoning_content and reasoning
// together, OpenRouter's comments, event/id/retry lines, "data:" without a
// space and no blank line after [DONE].

const wantAnswer = "Grüße 👋 — 3 × 4 = 12."
const wantThinking = "The user greets in German."

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// chunkReader hands out at most n bytes per Read, the way a network body
// delivers a stream in arbitrary pieces: inside CRLF, inside a multi-byte
// UTF-8 sequence, inside "data:".
type chunkReader struct {
	b []byte
	n int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	k := min(r.n, len(p), len(r.b))
	copy(p, r.b[:k])
	r.b = r.b[k:]
	return k, nil
}

// lineEndings rewrites a fixture's LF line ends into each form SSE allows.
var lineEndings = []struct {
	name string
	eol  string
}{{"LF", "\n"}, {"CRLF", "\r\n"}, {"CR", "\r"}}

var chunkSizes = []int{1, 2, 3, 5, 7, 13, 64, 4096}

// collected is everything a stream produced.
type collected struct {
	content, reasoning, finish string
	usage                      *Usage
	deltas                     int
	err                        error // the error that ended the stream
}

func collect(s Stream) collected {
	var c collected
	for {
		d, err := s.Recv()
		if err != nil {
			c.err = err
			return c
		}
		c.deltas++
		if d.Content == "" && d.Reasoning == "" && d.FinishReason == "" && d.Usage == nil {
			c.err = errors.New("Recv returned an empty delta")
			return c
		}
		c.content += d.Content
		c.reasoning += d.Reasoning
		if d.FinishReason != "" {
			c.finish = d.FinishReason
		}
		if d.Usage != nil {
			c.usage = d.Usage
		}
	}
}

func streamOf(b []byte, n int) Stream {
	return newSSEStream("test", io.NopCloser(&chunkReader{b: b, n: n}))
}

func TestStream_ServerFixturesDecodeUnderAnyChunkingAndLineEnding(t *testing.T) {
	tests := []struct {
		fixture   string
		reasoning string
		finish    string
		usage     *Usage
	}{
		{"openai.sse", "", "stop", &Usage{19, 10, 29}},
		{"ollama.sse", wantThinking, "stop", &Usage{12, 40, 52}},
		{"llamacpp.sse", wantThinking, "stop", &Usage{12, 40, 52}},
		{"lmstudio.sse", wantThinking, "stop", nil},
		{"vllm.sse", wantThinking, "stop", &Usage{12, 40, 52}},
		{"openrouter_comments.sse", wantThinking, "stop", &Usage{12, 40, 52}},
		{"finish_no_done.sse", "", "length", nil},
	}
	for _, tt := range tests {
		raw := readFixture(t, tt.fixture)
		for _, le := range lineEndings {
			b := bytes.ReplaceAll(raw, []byte("\n"), []byte(le.eol))
			for _, n := range chunkSizes {
				got := collect(streamOf(b, n))
				where := tt.fixture + "/" + le.name
				if got.err != io.EOF {
					t.Fatalf("%s chunk %d: stream ended with %v, want io.EOF", where, n, got.err)
				}
				if got.content != wantAnswer {
					t.Errorf("%s chunk %d: content %q, want %q", where, n, got.content, wantAnswer)
				}
				if got.reasoning != tt.reasoning {
					t.Errorf("%s chunk %d: reasoning %q, want %q", where, n, got.reasoning, tt.reasoning)
				}
				if got.finish != tt.finish {
					t.Errorf("%s chunk %d: finish %q, want %q", where, n, got.finish, tt.finish)
				}
				if (got.usage == nil) != (tt.usage == nil) || (got.usage != nil && *got.usage != *tt.usage) {
					t.Errorf("%s chunk %d: usage %+v, want %+v", where, n, got.usage, tt.usage)
				}
			}
		}
	}
}

func TestStream_MidStreamErrorsAreReturnedFromRecv(t *testing.T) {
	tests := []struct {
		fixture string
		msg     string
		typ     string
		code    string
	}{
		{"error_openai.sse", "The server had an error while processing your request. Sorry about that!", "server_error", ""},
		{"error_ollama.sse", "model runner has unexpectedly stopped, this may be due to resource limitations or an internal error", "api_error", ""},
		{"error_llamacpp.sse", "the request exceeds the available context size, try increasing it", "exceed_context_size_error", "400"},
		{"error_vllm.sse", "This model's maximum context length is 8192 tokens.", "BadRequestError", "400"},
	}
	for _, tt := range tests {
		for _, n := range chunkSizes {
			got := collect(streamOf(readFixture(t, tt.fixture), n))
			var se *StreamError
			if !errors.As(got.err, &se) {
				t.Fatalf("%s chunk %d: err %v, want *StreamError", tt.fixture, n, got.err)
			}
			if se.Message != tt.msg || se.Type != tt.typ || se.Code != tt.code {
				t.Errorf("%s: got %+v, want message %q type %q code %q", tt.fixture, se, tt.msg, tt.typ, tt.code)
			}
			if !strings.Contains(se.Error(), tt.msg) {
				t.Errorf("%s: Error() %q does not carry the server's message", tt.fixture, se.Error())
			}
			if got.content != "Grüße" {
				t.Errorf("%s: content before the error %q, want %q", tt.fixture, got.content, "Grüße")
			}
		}
	}
}

func TestStream_ErrorIsSticky(t *testing.T) {
	s := streamOf(readFixture(t, "error_openai.sse"), 4096)
	first := collect(s).err
	if _, err := s.Recv(); err != first {
		t.Errorf("second Recv after error returned %v, want the same %v", err, first)
	}
}

// Cutting a stream anywhere must never look like a complete answer unless
// the model had already said it was finished.
func TestStream_CutAnywhereIsEarlyEndUnlessFinished(t *testing.T) {
	for _, name := range []string{"openai.sse", "ollama.sse", "llamacpp.sse", "lmstudio.sse", "vllm.sse", "openrouter_comments.sse"} {
		b := readFixture(t, name)
		for _, le := range lineEndings {
			full := bytes.ReplaceAll(b, []byte("\n"), []byte(le.eol))
			for _, cut := range cutPoints(full) {
				got := collect(streamOf(full[:cut], 4096))
				if !strings.HasPrefix(wantAnswer, got.content) {
					t.Fatalf("%s/%s cut %d: content %q is not a prefix of the answer", name, le.name, cut, got.content)
				}
				switch {
				case got.err == io.EOF && got.finish == "":
					t.Fatalf("%s/%s cut %d: io.EOF without finish_reason", name, le.name, cut)
				case got.err != io.EOF && got.finish != "":
					t.Fatalf("%s/%s cut %d: after finish_reason got %v, want io.EOF", name, le.name, cut, got.err)
				case got.err != io.EOF && !errors.Is(got.err, ErrStreamEnded):
					t.Fatalf("%s/%s cut %d: got %v, want ErrStreamEnded", name, le.name, cut, got.err)
				}
			}
		}
	}
}

// cutPoints picks where to cut a stream: around every line end (before,
// inside CRLF, after, after the blank line) and every 11th byte in between,
// which lands inside JSON, inside "data:" and inside multi-byte runes.
// Every byte would be quadratic and too slow under -race.
func cutPoints(b []byte) []int {
	var cuts []int
	for i := range b {
		near := false
		for d := -2; d <= 2; d++ {
			if j := i + d; j >= 0 && j < len(b) && (b[j] == '\n' || b[j] == '\r') {
				near = true
			}
		}
		if near || i%11 == 0 {
			cuts = append(cuts, i)
		}
	}
	return cuts
}

func TestStream_CutWithoutDoneOrFinishSaysEndedEarly(t *testing.T) {
	got := collect(streamOf(readFixture(t, "cut_midstream.sse"), 3))
	if !errors.Is(got.err, ErrStreamEnded) {
		t.Fatalf("err %v, want ErrStreamEnded", got.err)
	}
	if !strings.Contains(got.err.Error(), "ended early") || !strings.Contains(got.err.Error(), "2 chunks") {
		t.Errorf("error %q should say the stream ended early and after how many chunks", got.err)
	}
	if got.content != "Grüße 👋" {
		t.Errorf("content %q, want what arrived before the cut", got.content)
	}
}

func TestStream_OverlongLineIsRejected(t *testing.T) {
	long := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + strings.Repeat("x", MaxLineBytes) + "\"}}]}\n\n"
	got := collect(streamOf([]byte(long), 1<<16))
	if !errors.Is(got.err, ErrLineTooLong) {
		t.Fatalf("err %v, want ErrLineTooLong", got.err)
	}
	// A line just under the limit is fine.
	ok := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + strings.Repeat("y", MaxLineBytes-100) + "\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	got = collect(streamOf([]byte(ok), 1<<16))
	if got.err != io.EOF || len(got.content) != MaxLineBytes-100 {
		t.Fatalf("line under the limit: err %v, %d content bytes", got.err, len(got.content))
	}
}

func TestStream_MalformedChunkNamesItsNumber(t *testing.T) {
	in := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\ndata: {not json}\n\n"
	got := collect(streamOf([]byte(in), 5))
	if got.err == nil || errors.Is(got.err, ErrStreamEnded) || !strings.Contains(got.err.Error(), "chunk 2") {
		t.Fatalf("err %v, want a malformed-JSON error naming chunk 2", got.err)
	}
}

func TestStream_OtherChoicesAreIgnored(t *testing.T) {
	in := `data: {"choices":[{"index":1,"delta":{"content":"other"}},{"index":0,"delta":{"content":"mine"},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"
	got := collect(streamOf([]byte(in), 4096))
	if got.err != io.EOF || got.content != "mine" {
		t.Fatalf("got %q, %v; want only choice 0", got.content, got.err)
	}
}

func TestStream_CloseMakesRecvReturnErrClosed(t *testing.T) {
	s := streamOf(readFixture(t, "openai.sse"), 64)
	if _, err := s.Recv(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := s.Recv(); !errors.Is(err, ErrClosed) {
		t.Fatalf("Recv after Close: %v, want ErrClosed", err)
	}
}

func TestSSEDecoder_Fields(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []event
	}{
		{"data with and without space", "data: a\n\ndata:b\n\n", []event{{Data: "a"}, {Data: "b"}}},
		{"only one leading space is stripped", "data:  a\n\n", []event{{Data: " a"}}},
		{"multi-line data joined by LF", "data: a\r\ndata: b\r\n\r\n", []event{{Data: "a\nb"}}},
		{"comments ignored", ": keep-alive\n\n: x\ndata: a\n\n", []event{{Data: "a"}}},
		{"event name kept", "event: delta\ndata: a\n\n", []event{{Name: "delta", Data: "a"}}},
		{"dataless event name does not leak", "event: ping\n\ndata: a\n\n", []event{{Data: "a"}}},
		{"empty data is still an event", "data:\n\n", []event{{Data: ""}}},
		{"llama.cpp error field", "error: {\"message\":\"m\"}\n\n", []event{{Error: "{\"message\":\"m\"}"}}},
		{"field without colon", "data\n\n", []event{{Data: ""}}},
		{"unterminated at EOF", "data: [DONE]", []event{{Data: "[DONE]", Unterminated: true}}},
		{"lone CR line ends", "data: a\r\rdata: b\r\r", []event{{Data: "a"}, {Data: "b"}}},
	}
	for _, tt := range tests {
		for _, n := range []int{1, 2, 4096} {
			d := newSSEDecoder(&chunkReader{b: []byte(tt.in), n: n})
			var got []event
			for {
				ev, err := d.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s: %v", tt.name, err)
				}
				got = append(got, ev)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("%s chunk %d: got %+v, want %+v", tt.name, n, got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("%s chunk %d: event %d = %+v, want %+v", tt.name, n, i, got[i], tt.want[i])
				}
			}
		}
	}
}

func TestErrorMessage_Shapes(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"openai object", `{"error":{"message":"Incorrect API key provided: sk-abc.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, "Incorrect API key provided: sk-abc."},
		{"ollama string", `{"error":"model \"llama9\" not found, try pulling it first"}`, `model "llama9" not found, try pulling it first`},
		{"vllm old", `{"object":"error","message":"The model ` + "`x`" + ` does not exist.","type":"NotFoundError","param":null,"code":404}`, "The model `x` does not exist."},
		{"fastapi detail", `{"detail":"Not Found"}`, "Not Found"},
		{"plain text", "  Bad Gateway\n", "Bad Gateway"},
		{"html collapsed", "<html>\n<body>502</body>\n</html>", "<html> <body>502</body> </html>"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		if got := errorMessage([]byte(tt.body)); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
	long := strings.Repeat("é", 2*maxMessageRunes)
	if got := errorMessage([]byte(long)); len([]rune(got)) != maxMessageRunes+1 {
		t.Errorf("long body clipped to %d runes, want %d plus an ellipsis", len([]rune(got)), maxMessageRunes)
	}
}

func TestStream_InlineErrorShapes(t *testing.T) {
	tests := []struct{ name, in, msg string }{
		{"string error", `data: {"error":"boom"}` + "\n\n", "boom"},
		{"error event", "event: error\ndata: {\"message\":\"overloaded\"}\n\n", "overloaded"},
		{"error event plain text", "event: error\ndata: upstream went away\n\n", "upstream went away"},
		{"llama.cpp field, plain", "error: context shift disabled\n\n", "context shift disabled"},
	}
	for _, tt := range tests {
		got := collect(streamOf([]byte(tt.in), 3))
		var se *StreamError
		if !errors.As(got.err, &se) || se.Message != tt.msg {
			t.Errorf("%s: err %v, want a StreamError saying %q", tt.name, got.err, tt.msg)
		}
	}
	// "error": null is how some servers say "no error".
	ok := `data: {"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}],"error":null}` + "\n\ndata: [DONE]\n\n"
	if got := collect(streamOf([]byte(ok), 3)); got.err != io.EOF || got.content != "x" {
		t.Errorf(`"error":null treated as an error: %v`, got.err)
	}
}
