// Package ask is `tinyrag ask`: one question answered natively by the
// engine the browser runs, with its tools (the registry in asktools.go,
// the web tools in webtools.go), printed as text or as JSON events.
package ask

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"tinyrag/app/engine"
	"tinyrag/app/httpdo"
	"tinyrag/app/llm"
	"tinyrag/app/protocol"
	"tinyrag/server/envconf"
	"tinyrag/server/exitcode"
)

// defaultLLMURL is Ollama's OpenAI-compatible endpoint, the most common
// local server.
const defaultLLMURL = "http://127.0.0.1:11434/v1"

// askOptions is the parsed command line of `tinyrag ask`.
type askOptions struct {
	llmURL      string
	apiKey      string
	model       string
	kb          []string
	allowNanogo bool
	noWeb       bool
	json        bool
	cfg         engine.Config
	question    string
	stderr      io.Writer // progress messages while building tools (e.g. --kb import)
	// getenv is the environment the command was started with; the web
	// tools read their TINYRAG_* settings from it, as serve does.
	getenv func(string) string
}

// Command is the whole command with its outside world passed in, so tests run
// it in-process.
func Command(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	o, err := parseAskFlags(args, stderr, getenv)
	if err != nil {
		return err
	}
	client := llm.NewClient(o.llmURL, llm.WithAPIKey(o.apiKey), llm.WithHTTPClient(httpdo.NetHTTP{Client: &http.Client{}}))
	if o.model == "" {
		o.model, err = firstModel(ctx, client)
		if err != nil {
			return err
		}
	}
	reg, kb, err := askRegistry(ctx, o)
	if err != nil {
		return err
	}

	eng := engine.New(o.cfg, client, reg, kb)
	var out askPrinter
	if o.json {
		out = &jsonPrinter{enc: json.NewEncoder(stdout)}
	} else {
		out = &textPrinter{stdout: stdout, stderr: stderr}
	}
	_, err = eng.Ask(ctx, engine.Request{Question: o.question, Model: o.model}, out.print)
	if werr := out.err(); werr != nil && err == nil {
		return fmt.Errorf("writing the answer: %w", werr)
	}
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return &exitcode.Error{Code: 130, Err: fmt.Errorf("interrupted: %w", err)}
	}
	if !strings.Contains(err.Error(), client.Endpoint()) {
		err = fmt.Errorf("LLM at %s: %w", client.Endpoint(), err)
	}
	return err
}

// parseAskFlags reads flags and the question. Flags may come after the
// question too (`tinyrag ask "why?" --json`), as people type them.
func parseAskFlags(args []string, stderr io.Writer, getenv func(string) string) (askOptions, error) {
	o := askOptions{cfg: engine.DefaultConfig(), stderr: stderr, getenv: getenv}
	fs := flag.NewFlagSet("ask", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tinyrag ask [flags] QUESTION\n\nAnswers QUESTION with the same engine the browser app runs. Flags:")
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "\nEnvironment: TINYRAG_LLM_URL, TINYRAG_LLM_KEY, TINYRAG_MODEL.")
	}
	env := envconf.New(getenv)
	fs.StringVar(&o.llmURL, "llm", env.String("TINYRAG_LLM_URL", defaultLLMURL), "OpenAI-compatible base URL, the part before /chat/completions (env TINYRAG_LLM_URL)")
	fs.StringVar(&o.model, "model", env.String("TINYRAG_MODEL", ""), "model name; empty: the first one the endpoint lists (env TINYRAG_MODEL)")
	fs.Func("kb", "import a file or folder into an in-memory knowledge base first (repeatable)", func(p string) error {
		o.kb = append(o.kb, p)
		return nil
	})
	fs.BoolVar(&o.allowNanogo, "allow-nanogo", false, "enable the nanogo Go sandbox tool")
	fs.BoolVar(&o.noWeb, "no-web", env.Bool("TINYRAG_NO_WEB", false), "disable the web tools (url_fetch, websearch, wikipedia; env TINYRAG_NO_WEB)")
	fs.BoolVar(&o.json, "json", false, "print one JSON object per event instead of the answer text")
	fs.IntVar(&o.cfg.MaxToolsTotal, "max-tools-total", o.cfg.MaxToolsTotal, "tool runs per question")
	fs.IntVar(&o.cfg.MaxToolsPerRound, "max-tools-per-round", o.cfg.MaxToolsPerRound, "tool runs per model reply")
	fs.IntVar(&o.cfg.MaxContinuations, "max-continuations", o.cfg.MaxContinuations, "follow-up rounds with tool results")
	fs.DurationVar(&o.cfg.ToolTimeout, "tool-timeout", o.cfg.ToolTimeout, "time limit of one tool run")

	if err := env.Err(); err != nil {
		return o, fmt.Errorf("environment: %w", err)
	}
	var words []string
	for {
		if err := fs.Parse(args); err != nil {
			return o, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		words = append(words, rest[0])
		args = rest[1:]
	}
	o.question = strings.TrimSpace(strings.Join(words, " "))
	o.apiKey = getenv("TINYRAG_LLM_KEY")
	switch {
	case o.question == "":
		fs.Usage()
		return o, errors.New("no question given")
	case o.cfg.MaxToolsTotal < 0 || o.cfg.MaxToolsPerRound < 0 || o.cfg.MaxContinuations < 0:
		return o, errors.New("--max-tools-total, --max-tools-per-round and --max-continuations must not be negative")
	case o.cfg.ToolTimeout <= 0:
		return o, fmt.Errorf("--tool-timeout must be positive, got %s", o.cfg.ToolTimeout)
	case !strings.HasPrefix(o.llmURL, "http://") && !strings.HasPrefix(o.llmURL, "https://"):
		return o, fmt.Errorf("--llm %q: need an http:// or https:// URL", o.llmURL)
	}
	return o, nil
}

// firstModel asks the endpoint which models it serves, for when none was
// given: with a local server that usually is the one loaded.
func firstModel(ctx context.Context, c *llm.Client) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	models, err := c.Models(ctx)
	if err != nil {
		return "", fmt.Errorf("no --model given and listing the models of %s failed: %w", c.Endpoint(), err)
	}
	if len(models) == 0 {
		return "", fmt.Errorf("no --model given and %s lists no models", c.Endpoint())
	}
	return models[0], nil
}

// askPrinter writes events for a person or a program.
type askPrinter interface {
	print(engine.Event)
	err() error // the first write error
}

// jsonPrinter writes one JSON object per line, in the order emitted.
type jsonPrinter struct {
	enc  *json.Encoder
	werr error
}

func (p *jsonPrinter) print(e engine.Event) {
	if p.werr == nil {
		p.werr = p.enc.Encode(e)
	}
}

func (p *jsonPrinter) err() error { return p.werr }

// textPrinter streams the answer to stdout and tool activity to stderr,
// so `tinyrag ask … > answer.md` captures only the answer.
type textPrinter struct {
	stdout, stderr io.Writer
	last           string // the answer text's end, to finish with a newline
	werr           error

	// Tool blocks are reported on stderr; stdout gets the answer as a
	// reader sees it, so the stream goes through the protocol parser that
	// finds them (token text is raw, tool XML included).
	blocks  protocol.XMLParseState
	emitted int64 // stream offset of the next visible byte
}

// visible writes the parser's visible text minus the tool blocks in it.
func (p *textPrinter) visible(v string, calls []protocol.Call) error {
	start := p.emitted
	p.emitted += int64(len(v))
	var b strings.Builder
	pos := int64(0)
	for _, c := range calls {
		from, to := max(c.Start-start, pos), min(c.End-start, int64(len(v)))
		if from >= to {
			continue
		}
		b.WriteString(v[pos:from])
		pos = to
	}
	b.WriteString(v[pos:])
	if b.Len() == 0 {
		return nil
	}
	p.last = b.String()
	_, err := io.WriteString(p.stdout, p.last)
	return err
}

func (p *textPrinter) print(e engine.Event) {
	var err error
	switch e.Event {
	case engine.EventToken:
		err = p.visible(p.blocks.Feed(e.Text))
	case engine.EventToolStart:
		fmt.Fprintf(p.stderr, "⟳ %s %s: %s\n", e.ID, e.Tool, oneLine(e.Query))
	case engine.EventToolResult:
		if e.Error != "" {
			fmt.Fprintf(p.stderr, "✗ %s %s: %s\n", e.ID, e.Tool, e.Error)
		} else {
			fmt.Fprintf(p.stderr, "✓ %s %s: %d bytes from %s\n", e.ID, e.Tool, e.ResultBytes, e.Source)
		}
	case engine.EventToolSkipped:
		fmt.Fprintf(p.stderr, "⊘ %s %s: skipped (%s)\n", e.ID, e.Tool, e.Reason)
	case engine.EventDone:
		err = p.visible(p.blocks.Flush(), nil)
		if err == nil && p.last != "" && !strings.HasSuffix(p.last, "\n") {
			_, err = io.WriteString(p.stdout, "\n")
		}
		if e.FallbackReason != "" {
			fmt.Fprintf(p.stderr, "note: stopped early: %s\n", e.FallbackReason)
		}
	}
	if p.werr == nil {
		p.werr = err
	}
}

func (p *textPrinter) err() error { return p.werr }

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 120 {
		return string(r[:120]) + "…"
	}
	return s
}
