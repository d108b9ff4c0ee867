package ui

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/chats"
	"tinyrag/app/markdown"
)

func (s *Shell) renderTopbar() app.UI {
	l := s.lang()
	title := T(l, "new_chat")
	if s.chat != nil && s.chat.Title != "" {
		title = s.chat.Title
	}
	return app.Header().Class("topbar").Body(
		app.Button().Class("icon-btn menu-btn").Type("button").Aria("label", T(l, "open_menu")).
			Aria("expanded", s.navOpen).Text("☰").
			OnClick(func(ctx app.Context, e app.Event) { s.navOpen = !s.navOpen }),
		app.H1().Text(title),
		s.renderLLMDot(),
	)
}

func (s *Shell) renderMessages() app.UI {
	var body []app.UI
	if s.ready && s.llm == llmDown {
		body = append(body, s.renderBanner())
	}
	if s.loadErr != "" {
		body = append(body, app.Div().Class("banner").Attr("role", "alert").Text(T(s.lang(), "storage_temporary")+" ("+s.loadErr+")"))
	}
	if s.notice != "" {
		body = append(body, app.Div().Class("banner notice").Attr("role", "alert").Body(
			app.Span().Text(s.notice),
			app.Button().Class("icon-btn").Type("button").Aria("label", T(s.lang(), "close")).Text("✕").
				OnClick(func(ctx app.Context, e app.Event) { s.notice = "" }),
		))
	}
	if s.chat == nil || len(s.chat.Messages) == 0 {
		body = append(body, s.renderWelcome())
	} else {
		var msgs []app.UI
		for i, m := range s.chat.Messages {
			msgs = append(msgs, s.renderMessage(i, m))
		}
		body = append(body, app.Div().Class("thread").Attr("role", "log").Aria("live", "polite").
			Aria("busy", s.busy).Aria("label", T(s.lang(), "conversation")).ID("thread").
			OnClick(s.onThreadClick).Body(msgs...))
	}
	return app.Div().Class("messages").ID("messages").Body(body...)
}

func (s *Shell) renderWelcome() app.UI {
	l := s.lang()
	suggestion := func(key string) app.UI {
		parts := strings.SplitN(T(l, key), "|", 2)
		text := parts[0] + " " + parts[1]
		return app.Button().Class("suggestion").Type("button").Body(
			app.Strong().Text(parts[0]),
			app.Span().Text(parts[1]),
		).OnClick(func(ctx app.Context, e app.Event) {
			s.draft = text
			ctx.Defer(func(app.Context) { focusByID(InputID) })
		}, app.EventScope(l, key))
	}
	return app.Div().Class("welcome").Body(
		app.Img().Src("/web/icons/icon.svg").Alt(""),
		app.H2().Text(T(l, "welcome_title")),
		app.P().Text(T(l, "welcome_text")),
		app.Div().Class("suggestions").Body(
			suggestion("s_summarize"), suggestion("s_calc"), suggestion("s_wiki"), suggestion("s_compare"),
		),
	)
}

func (s *Shell) renderBanner() app.UI {
	if s.net != netOnline {
		return s.renderOfflineBanner()
	}
	l := s.lang()
	item := func(key string) app.UI { return app.Li().Body(inlineCode(T(l, key))...) }
	return app.Section().Class("banner").ID("llm-banner").Attr("role", "status").Aria("labelledby", "llm-banner-title").Body(
		app.Strong().ID("llm-banner-title").Text(T(l, "banner_title")),
		app.P().Text(T(l, "banner_text")),
		app.If(s.rt == nil || s.rt.Proxy() != "", func() app.UI {
			return app.Ul().Body(item("banner_ollama"), item("banner_lmstudio"), item("banner_key"))
		}).Else(func() app.UI {
			return app.P().Text(T(l, "banner_static"))
		}),
		app.Div().Class("banner-actions").Body(
			app.Span().Class("banner-err").ID("llm-explain").Text(s.llmErr),
			app.Button().Class("btn").Type("button").Text(T(l, "settings")).
				OnClick(func(ctx app.Context, e app.Event) { s.view = viewSettings }),
			app.Button().Class("btn").Type("button").Text(T(l, "retry")).
				OnClick(func(ctx app.Context, e app.Event) { s.ctx.Async(func() { s.checkLLM(s.ctx) }) }),
		),
	)
}

// inlineCode renders `code` spans of a plain interface string.
func inlineCode(s string) []app.UI {
	var out []app.UI
	for i, part := range strings.Split(s, "`") {
		if i%2 == 1 {
			out = append(out, app.Code().Text(part))
		} else if part != "" {
			out = append(out, app.Text(part))
		}
	}
	return out
}

func (s *Shell) renderMessage(i int, m *chats.Message) app.UI {
	l := s.lang()
	if m.Role == chats.RoleUser {
		return app.Article().Class("msg user").Aria("label", T(l, "you")).Body(
			app.Div().Class("avatar").Aria("hidden", true).Text("🙂"),
			app.Div().Class("bubble").Text(m.Content),
		)
	}
	v := answerView{m: m, lang: l, debug: s.settings.Debug, allowRun: s.settings.AllowNanoGo && NanoGoRunner != nil}
	last := i == len(s.chat.Messages)-1
	actions := app.Div().Class("msg-actions").Body(
		app.Button().Class("icon-btn copy-answer").Type("button").Aria("label", T(l, "copy")).
			Body(iconCopy(), app.Span().Text(copyLabel(l, s.copiedIdx == i))).
			OnClick(func(ctx app.Context, e app.Event) {
				copyText(markdown.ToText(answerText(m)))
				s.copiedIdx = i
				s.ctx.After(1500*time.Millisecond, func(app.Context) { s.copiedIdx = -1 })
			}, app.EventScope(s.chat.ID, i)),
		app.If(last && !s.busy, func() app.UI {
			return app.Button().Class("icon-btn regenerate").Type("button").Aria("label", T(l, "regenerate")).
				Body(app.Span().Aria("hidden", true).Text("↻"), app.Span().Text(T(l, "regenerate"))).
				OnClick(s.onRegenerate)
		}),
	)
	var cites []app.UI
	for ci := range m.Citations {
		c := m.Citations[ci]
		label := c.Title
		if label == "" {
			label = c.Source
		}
		cites = append(cites, app.Button().Class("citation").Type("button").Title(c.Source).
			Aria("label", T(l, "chunk")+" "+sprintf("%d", ci+1)+": "+label).
			Body(app.Span().Class("cite-n").Text(sprintf("%d", ci+1)), app.Span().Text(label)).
			OnClick(func(ctx app.Context, e app.Event) { s.openCitation(ctx, c) }, app.EventScope(s.chat.ID, i, c.ChunkID)))
	}
	return app.Article().Class("msg assistant").Aria("label", T(l, "assistant")).Body(
		app.Div().Class("avatar").Aria("hidden", true).Text("✦"),
		app.Div().Class("bubble").Body(
			v.Render(),
			app.If(len(cites) > 0, func() app.UI {
				return app.Nav().Class("citations").Aria("label", T(l, "sources")).Body(cites...)
			}),
			app.If(!m.Streaming, func() app.UI { return actions }),
		),
	)
}

func copyLabel(lang string, copied bool) string {
	if copied {
		return T(lang, "copied")
	}
	return T(lang, "copy")
}

// answerText is an answer without its tool blocks.
func answerText(m *chats.Message) string {
	if m.Answer != "" {
		return m.Answer
	}
	return markdown.StripToolBlocks(m.Content, mdCards(m))
}

// answerView renders one answer: thinking, the Markdown with live tool
// cards, the state line, and in debug mode the route and telemetry.
type answerView struct {
	m        *chats.Message
	lang     string
	debug    bool
	allowRun bool
}

// Render returns the answer's body.
func (v answerView) Render() app.UI {
	m := v.m
	l := v.lang
	html := markdown.RenderAnswer(m.Content, mdCards(m), markdown.Options{AllowRun: v.allowRun, Lang: l, Streaming: m.Streaming})
	cls := "answer"
	if m.Streaming {
		cls += " cursor"
	}
	var parts []app.UI
	if m.Thinking != "" {
		label := T(l, "thought")
		if m.Streaming && m.Content == "" {
			label = T(l, "thinking") + "…"
		}
		parts = append(parts, app.Details().Class("thinking").Body(
			app.Summary().Text(label),
			app.Pre().Text(m.Thinking),
		))
	}
	if m.Streaming && m.Content == "" && m.Thinking == "" {
		parts = append(parts, app.Div().Class("typing").Aria("label", T(l, "thinking")).Body(
			app.Span(), app.Span(), app.Span(),
		))
	}
	parts = append(parts, app.Div().Class(cls).Body(app.Raw(html)))
	if m.Offline {
		parts = append(parts, app.P().Class("msg-note").Text(T(l, "answered_from_kb")))
	}
	if m.Stopped {
		parts = append(parts, app.P().Class("msg-note stopped").Text(T(l, "stopped")))
	} else if m.Error != "" {
		parts = append(parts, app.P().Class("msg-error").Attr("role", "alert").Text(T(l, "answer_failed")+": "+m.Error))
	}
	if v.debug && (m.Route != nil || m.Telemetry != nil) {
		parts = append(parts, v.renderDebug())
	}
	return app.Div().Class("answer-wrap").Body(parts...)
}

func (v answerView) renderDebug() app.UI {
	m := v.m
	var route string
	if m.Route != nil {
		route = m.Route.Mode + " — " + m.Route.Reason
		if len(m.Route.Hints) > 0 {
			route += " [" + strings.Join(m.Route.Hints, ", ") + "]"
		}
	}
	tel := ""
	if m.Telemetry != nil {
		b, _ := json.MarshalIndent(m.Telemetry, "", "  ")
		tel = string(b)
	}
	return app.Details().Class("debug").Body(
		app.Summary().Body(app.Strong().Text(T(v.lang, "route")+": "), app.Span().Class("route-mode").Text(route)),
		app.Pre().Class("telemetry").Text(tel),
	)
}

// mdCards turns the message's cards into the renderer's.
func mdCards(m *chats.Message) []markdown.Card {
	out := make([]markdown.Card, len(m.Cards))
	for i, c := range m.Cards {
		out[i] = markdown.Card{Start: c.Start, End: c.End, ID: c.ID, Tool: c.Tool, Input: c.Input,
			Status: c.Status, Result: c.Result, Error: c.Error}
	}
	return out
}

// openCitation shows c in the citation dialog and moves the keyboard focus
// into it: the close button's autofocus attribute works on page load only,
// and with the focus left on the page behind, Escape never reached the
// dialog.
func (s *Shell) openCitation(ctx app.Context, c chats.Citation) {
	s.citation = &c
	s.citeFrom = ctx.JSSrc()
	s.ctx.Defer(func(app.Context) {
		if b := app.Window().GetElementByID("cite-close"); b.Truthy() {
			b.Call("focus")
		}
	})
}

// closeCitation closes the dialog and gives the focus back to the control
// that opened it, so a keyboard user continues where they were. Focus moves
// are deferred on the shell's context, here and in openCitation: go-app
// drops what is deferred on the context of an element the update removes.
func (s *Shell) closeCitation() {
	s.citation = nil
	from := s.citeFrom
	s.citeFrom = nil
	s.ctx.Defer(func(app.Context) {
		if from != nil && from.Truthy() && from.Get("isConnected").Bool() {
			from.Call("focus")
		}
	})
}

func (s *Shell) renderCitation() app.UI {
	c := s.citation
	l := s.lang()
	closeFn := func(ctx app.Context, e app.Event) { s.closeCitation() }
	return app.Div().Class("modal-backdrop").OnClick(closeFn).Body(
		app.Div().Class("modal").Attr("role", "dialog").Aria("modal", true).Aria("labelledby", "cite-title").ID("citation-dialog").
			OnClick(func(ctx app.Context, e app.Event) { e.StopImmediatePropagation() }).
			OnKeyDown(func(ctx app.Context, e app.Event) {
				if e.Get("key").String() == "Escape" {
					s.closeCitation()
				}
			}).Body(
			app.Header().Class("modal-head").Body(
				app.H2().ID("cite-title").Text(c.Title),
				app.Button().Class("icon-btn").ID("cite-close").Type("button").Aria("label", T(l, "close")).AutoFocus(true).Text("✕").OnClick(closeFn),
			),
			app.P().Class("cite-source").Body(app.Code().Text(c.Source), app.Span().Text(" · "+c.ChunkID),
				app.If(s.citeLink(c) != "", func() app.UI {
					return app.A().ID("cite-link").Class("cite-link").Href(s.citeLink(c)).Target("_blank").Rel("noopener").Text(" · " + T(l, "open_page") + " ↗")
				})),
			app.Blockquote().Class("cite-text").Text(c.Text),
		),
	)
}

// citeLink is where a citation from site knowledge links: the page it
// came from. Visitor imports have no page to open.
func (s *Shell) citeLink(c *chats.Citation) string {
	if s.rt == nil || !s.rt.IsSiteCitation(c.ChunkID) {
		return ""
	}
	return SiteLink(s.pageURL(), c.Source)
}

// iconCopy is the copy symbol; no font has a glyph for it everywhere.
func iconCopy() app.UI {
	return app.Raw(`<svg class="icon" aria-hidden="true" viewBox="0 0 16 16" width="14" height="14" fill="none" stroke="currentColor" stroke-width="1.5"><rect x="5.5" y="5.5" width="8" height="8" rx="1.5"/><path d="M10.5 3.5v-.5a1.5 1.5 0 0 0-1.5-1.5H4A1.5 1.5 0 0 0 2.5 3v5A1.5 1.5 0 0 0 4 9.5h.5"/></svg>`)
}
