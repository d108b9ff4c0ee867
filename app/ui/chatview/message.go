package chatview

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/chats"
	"tinyrag/app/control"
	"tinyrag/app/markdown/answer"
	"tinyrag/app/markdown/mdmodule"
	"tinyrag/app/ui/i18n"
	"tinyrag/app/ui/uikit"
)

// MessageView is one question or answer. An answer shows its thinking,
// the Markdown with live tool cards, its citations, a state line, and
// (when it is done) copy and regenerate.
type MessageView struct {
	app.Compo
	Ctrl          *control.Controller
	Lang          string
	Debug         bool
	AllowRun      bool
	ChatID        string
	Index         int
	Msg           chats.Message
	CanRegenerate bool
	// Expanded are the call ids of the tool cards the user opened.
	Expanded map[string]bool
	// LinkTarget is where links to sources open ("_top" in the embedded
	// view, "_blank" else).
	LinkTarget string
	// FeedbackNote says who hears a rating.
	FeedbackNote string
	// Formatting is the Markdown renderer's state (StateFormatting); a
	// change draws the answer again.
	Formatting mdmodule.State

	copied bool
}

// Render implements app.Composer.
func (v *MessageView) Render() app.UI {
	l := v.Lang
	m := &v.Msg
	if m.Role == chats.RoleUser {
		return app.Article().Class("msg user").Aria("label", i18n.T(l, "you")).Attr("data-msg", v.Index).Body(
			app.Div().Class("avatar").Body(uikit.Icon("user")),
			app.Div().Class("bubble").Text(m.Content),
		)
	}
	actions := app.Div().Class("msg-actions").Body(
		app.Button().Class("icon-btn copy-answer").Type("button").Aria("label", i18n.T(l, "copy")).
			Body(uikit.Icon("copy"), app.Span().Text(copyLabel(l, v.copied))).
			OnClick(func(ctx app.Context, e app.Event) {
				uikit.CopyText(mdmodule.Page.ToText(AnswerText(m)))
				v.copied = true
				ctx.After(1500*time.Millisecond, func(app.Context) { v.copied = false })
			}, app.EventScope(v.ChatID, v.Index)),
		app.If(v.CanRegenerate, func() app.UI {
			return app.Button().Class("icon-btn regenerate").Type("button").Aria("label", i18n.T(l, "regenerate")).
				Body(uikit.Icon("refresh"), app.Span().Text(i18n.T(l, "regenerate"))).
				OnClick(func(ctx app.Context, e app.Event) {
					if v.Ctrl.Chat.Regenerate() {
						ctx.Defer(func(app.Context) { StickToBottom(true) })
					}
				})
		}),
		app.If(!m.Stopped && m.Error == "", func() app.UI {
			return &RatingView{Ctrl: v.Ctrl, Lang: l, ChatID: v.ChatID, Index: v.Index, Feedback: m.Feedback, Note: v.FeedbackNote}
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
			Aria("label", i18n.T(l, "chunk")+" "+fmt.Sprintf("%d", ci+1)+": "+label).
			Body(app.Span().Class("cite-n").Text(fmt.Sprintf("%d", ci+1)), app.Span().Text(label)).
			OnClick(func(ctx app.Context, e app.Event) { uikit.OpenCitation(ctx, c) }, app.EventScope(v.ChatID, v.Index, c.ChunkID)))
	}
	return app.Article().Class("msg assistant").Aria("label", i18n.T(l, "assistant")).Attr("data-msg", v.Index).Body(
		app.Div().Class("avatar").Body(uikit.Icon("spark")),
		app.Div().Class("bubble").Body(
			v.renderAnswer(),
			app.If(len(cites) > 0, func() app.UI {
				return app.Nav().Class("citations").Aria("label", i18n.T(l, "sources")).Body(cites...)
			}),
			app.If(!m.Streaming && len(m.Related) > 0, func() app.UI { return v.renderRelated() }),
			app.If(!m.Streaming, func() app.UI { return actions }),
		),
	)
}

// renderRelated lists the pages to read next: they match the question and
// the answer did not cite them.
func (v *MessageView) renderRelated() app.UI {
	l := v.Lang
	items := make([]app.UI, len(v.Msg.Related))
	for i, r := range v.Msg.Related {
		title := r.Title
		if title == "" {
			title = r.Source
		}
		items[i] = app.Li().Body(app.A().Class("related-link").Href(r.URL).Target(linkTarget(v.LinkTarget)).Rel("noopener").
			Title(r.Source).Body(uikit.Icon("file"), app.Span().Text(title)))
	}
	return app.Nav().Class("related").Aria("label", i18n.T(l, "related")).Body(
		app.Span().Class("related-title").Text(i18n.T(l, "related")),
		app.Ul().Body(items...),
	)
}

// linkTarget is target, "_blank" unless it is "_top".
func linkTarget(target string) string {
	if target == "_top" {
		return target
	}
	return "_blank"
}

// renderAnswer is the answer's body.
func (v *MessageView) renderAnswer() app.UI {
	m := &v.Msg
	l := v.Lang
	html := mdmodule.Page.RenderAnswer(m.Content, control.MDCards(m), answer.Options{AllowRun: v.AllowRun, Lang: l, Streaming: m.Streaming, Expanded: v.Expanded,
		CiteLinks: uikit.SiteOf(v.Ctrl).CiteLinks(m.Citations), CiteTarget: v.LinkTarget})
	cls := "answer"
	if m.Streaming {
		cls += " cursor"
	}
	var parts []app.UI
	if m.Thinking != "" {
		label := i18n.T(l, "thought")
		if m.Streaming && m.Content == "" {
			label = i18n.T(l, "thinking") + "…"
		}
		parts = append(parts, app.Details().Class("thinking").Body(
			app.Summary().Text(label),
			app.Pre().Text(m.Thinking),
		))
	}
	if m.Streaming && m.Content == "" && m.Thinking == "" {
		parts = append(parts, app.Div().Class("typing").Aria("label", i18n.T(l, "thinking")).Body(
			app.Span(), app.Span(), app.Span(),
		))
	}
	parts = append(parts, app.Div().Class(cls).Body(app.Raw(html)))
	if st, err := mdmodule.Page.State(); st == mdmodule.Failed && m.Content != "" {
		// Shown as plain text: say so, and why, rather than let it
		// look like the model's formatting.
		why := ""
		if err != nil {
			why = err.Error()
		}
		parts = append(parts, app.P().Class("msg-note plain-note").Title(why).Text(i18n.T(l, "formatting_unavailable")))
	}
	if m.Offline {
		parts = append(parts, app.P().Class("msg-note").Text(i18n.T(l, "answered_from_kb")))
	}
	if m.NoMatch && !m.Streaming {
		parts = append(parts, app.P().Class("msg-note no-match").Text(i18n.T(l, "no_match")))
	}
	if m.Stopped {
		parts = append(parts, app.P().Class("msg-note stopped").Text(i18n.T(l, "stopped")))
	} else if m.Error != "" {
		parts = append(parts, app.P().Class("msg-error").Attr("role", "alert").Text(i18n.T(l, "answer_failed")+": "+m.Error))
	}
	if v.Debug && (m.Route != nil || m.Telemetry != nil) {
		parts = append(parts, v.renderDebug())
	}
	return app.Div().Class("answer-wrap").Body(parts...)
}

func (v *MessageView) renderDebug() app.UI {
	m := &v.Msg
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
		app.Summary().Body(app.Strong().Text(i18n.T(v.Lang, "route")+": "), app.Span().Class("route-mode").Text(route)),
		app.Pre().Class("telemetry").Text(tel),
	)
}

func copyLabel(lang string, copied bool) string {
	if copied {
		return i18n.T(lang, "copied")
	}
	return i18n.T(lang, "copy")
}

// AnswerText is an answer without its tool blocks: what its Copy button
// copies, and what the Markdown export and an embedding page get.
func AnswerText(m *chats.Message) string {
	if m.Answer != "" {
		return m.Answer
	}
	return answer.StripToolBlocks(m.Content, control.MDCards(m))
}
