package ui

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// endpointPlaceholder shows what an empty endpoint means on this site.
func (s *Shell) endpointPlaceholder() string {
	if s.rt != nil {
		if b := s.rt.LLMBase(Settings{}); b != "" {
			return b
		}
		return "http://127.0.0.1:11434/v1"
	}
	return "/api/llm"
}

// endpointHint says what an empty endpoint means here: the server's proxy,
// the site's preset, or nothing at all on a static site without either.
func (s *Shell) endpointHint() string {
	l := s.lang()
	switch {
	case s.rt == nil || (s.rt.Proxy() != "" && (s.rt.SiteConfig == nil || s.rt.SiteConfig.LLM == nil)):
		return T(l, "endpoint_hint")
	case s.rt.SiteConfig != nil && s.rt.SiteConfig.LLM != nil:
		return T(l, "endpoint_hint_preset")
	}
	return T(l, "endpoint_hint_direct")
}

// renderSettings is the settings page. Every change is saved at once:
// there is no "Save" to forget.
func (s *Shell) renderSettings() app.UI {
	l := s.lang()
	st := &s.settings
	changed := func(ctx app.Context) { s.saveSettings(ctx) }

	auto := T(l, "model_auto")
	if len(s.models) > 0 {
		auto += " (" + s.models[0] + ")"
	}
	models := []app.UI{app.Option().Value("").Text(auto)}
	seen := false
	for _, m := range s.models {
		seen = seen || m == st.Model
		models = append(models, app.Option().Value(m).Text(m).Selected(m == st.Model))
	}
	if st.Model != "" && !seen {
		models = append(models, app.Option().Value(st.Model).Text(st.Model).Selected(true))
	}

	themes := make([]app.UI, 0, len(Themes))
	for _, t := range Themes {
		id := t.ID
		themes = append(themes, app.Button().Class("theme-swatch").Type("button").ID("theme-"+id).
			Attr("data-swatch", id).Aria("pressed", st.Theme == id).Title(t.Name).
			Body(app.Span().Class("swatch-dots").Aria("hidden", true).Body(app.Span(), app.Span(), app.Span()), app.Span().Text(t.Name)).
			OnClick(func(ctx app.Context, e app.Event) { st.Theme = id; changed(ctx) }))
	}
	langs := make([]app.UI, 0, len(Languages))
	for _, lg := range Languages {
		langs = append(langs, app.Option().Value(lg.Code).Text(lg.Name).Selected(st.Lang == lg.Code))
	}
	answerLangs := make([]app.UI, 0, len(AnswerLanguages))
	for _, a := range AnswerLanguages {
		label := a
		if a == "" {
			label = T(l, "answer_auto")
		}
		answerLangs = append(answerLangs, app.Option().Value(a).Text(label).Selected(st.AnswerLang == a))
	}
	personaOpts := []app.UI{app.Option().Value("").Text(T(l, "none"))}
	for _, p := range st.Personas {
		personaOpts = append(personaOpts, app.Option().Value(p.Name).Text(p.Name).Selected(st.Persona == p.Name))
	}

	testCls := "form-error"
	if s.testOK {
		testCls = "form-ok"
	}

	return app.Main().Class("main settings-page").ID("settings").Aria("label", T(l, "settings")).Body(
		app.Header().Class("topbar").Body(
			app.Button().Class("icon-btn menu-btn").Type("button").Aria("label", T(l, "open_menu")).Text("☰").
				OnClick(func(ctx app.Context, e app.Event) { s.navOpen = !s.navOpen }),
			app.H1().Text(T(l, "settings")),
			app.Button().Class("btn").ID("settings-close").Type("button").Text(T(l, "close")).
				OnClick(func(ctx app.Context, e app.Event) { s.view = viewChat }),
		),
		app.Div().Class("settings-scroll").Body(
			app.Div().Class("settings-grid").Body(
				card(T(l, "llm"),
					field(T(l, "endpoint"), "set-endpoint", s.endpointHint(),
						app.Input().ID("set-endpoint").Type("url").Placeholder(s.endpointPlaceholder()).Value(st.Endpoint).
							OnChange(func(ctx app.Context, e app.Event) {
								st.Endpoint = ctx.JSSrc().Get("value").String()
								changed(ctx)
								s.testLLM()
							})),
					field(T(l, "api_key"), "set-key", T(l, "api_key_hint"),
						app.Input().ID("set-key").Type("password").Attr("autocomplete", "off").Value(st.APIKey).
							OnChange(func(ctx app.Context, e app.Event) {
								st.APIKey = ctx.JSSrc().Get("value").String()
								changed(ctx)
								s.testLLM()
							})),
					field(T(l, "model"), "set-model", "",
						app.Select().ID("set-model").Body(models...).
							OnChange(func(ctx app.Context, e app.Event) { st.Model = ctx.JSSrc().Get("value").String(); changed(ctx) })),
					app.Div().Class("row").Body(
						app.Button().Class("btn primary").ID("test-conn").Type("button").Disabled(s.testing).
							Text(map[bool]string{true: T(l, "testing"), false: T(l, "test_conn")}[s.testing]).
							OnClick(func(ctx app.Context, e app.Event) { s.testLLM() }),
						app.If(s.testMsg != "" && !s.testing, func() app.UI {
							return app.Span().Class(testCls).ID("test-result").Attr("role", "status").Text(s.testMsg)
						}),
					),
				),
				card(T(l, "appearance"),
					app.Div().Class("field").Body(
						app.Span().Class("field-label").Text(T(l, "theme")),
						app.Div().Class("swatches").Attr("role", "group").Aria("label", T(l, "theme")).Body(themes...),
					),
					field(T(l, "ui_lang"), "set-lang", "",
						app.Select().ID("set-lang").Body(langs...).
							OnChange(func(ctx app.Context, e app.Event) { st.Lang = ctx.JSSrc().Get("value").String(); changed(ctx) })),
					field(T(l, "answer_lang"), "set-answer-lang", "",
						app.Select().ID("set-answer-lang").Body(answerLangs...).
							OnChange(func(ctx app.Context, e app.Event) { st.AnswerLang = ctx.JSSrc().Get("value").String(); changed(ctx) })),
				),
				card(T(l, "personas"),
					field(T(l, "persona"), "set-persona", "",
						app.Select().ID("set-persona").Body(personaOpts...).
							OnChange(func(ctx app.Context, e app.Event) { st.Persona = ctx.JSSrc().Get("value").String(); changed(ctx) })),
					s.renderPersonas(),
				),
				card(T(l, "tools"),
					toggle("set-nanogo", T(l, "allow_nanogo"), st.AllowNanoGo, func(ctx app.Context, v bool) { st.AllowNanoGo = v; changed(ctx) }),
					toggle("set-web", T(l, "auto_web"), !st.NoWebSearch, func(ctx app.Context, v bool) { st.NoWebSearch = !v; changed(ctx) }),
					toggle("set-debug", T(l, "debug"), st.Debug, func(ctx app.Context, v bool) { st.Debug = v; changed(ctx) }),
					app.Div().Class("caps").Body(
						number("set-max-total", T(l, "max_tools_total"), st.MaxToolsTotal, func(ctx app.Context, v int) { st.MaxToolsTotal = v; changed(ctx) }),
						number("set-max-round", T(l, "max_tools_round"), st.MaxToolsPerRound, func(ctx app.Context, v int) { st.MaxToolsPerRound = v; changed(ctx) }),
						number("set-max-cont", T(l, "max_cont"), st.MaxContinuations, func(ctx app.Context, v int) { st.MaxContinuations = v; changed(ctx) }),
						number("set-timeout", T(l, "tool_timeout"), st.ToolTimeoutSec, func(ctx app.Context, v int) { st.ToolTimeoutSec = v; changed(ctx) }),
					),
				),
			),
		),
	)
}

func (s *Shell) renderPersonas() app.UI {
	l := s.lang()
	st := &s.settings
	var rows []app.UI
	for i := range st.Personas {
		i := i
		p := st.Personas[i]
		rows = append(rows, app.Div().Class("persona").Body(
			app.Input().Class("field-input").Value(p.Name).Aria("label", T(l, "persona_name")).
				OnChange(func(ctx app.Context, e app.Event) {
					old := st.Personas[i].Name
					st.Personas[i].Name = ctx.JSSrc().Get("value").String()
					if st.Persona == old {
						st.Persona = st.Personas[i].Name
					}
					s.saveSettings(ctx)
				}),
			app.Textarea().Class("field-input").Rows(2).Aria("label", T(l, "persona_prompt")).Text(p.Prompt).
				OnChange(func(ctx app.Context, e app.Event) {
					st.Personas[i].Prompt = ctx.JSSrc().Get("value").String()
					s.saveSettings(ctx)
				}),
			app.Button().Class("row-btn danger").Type("button").Aria("label", T(l, "delete")+": "+p.Name).Text("🗑").
				OnClick(func(ctx app.Context, e app.Event) {
					st.Personas = append(st.Personas[:i:i], st.Personas[i+1:]...)
					s.saveSettings(ctx)
				}),
		))
	}
	rows = append(rows, app.Button().Class("btn small").Type("button").Text("+ "+T(l, "add_persona")).
		OnClick(func(ctx app.Context, e app.Event) {
			st.Personas = append(st.Personas, Persona{Name: sprintf("Persona %d", len(st.Personas)+1)})
			s.saveSettings(ctx)
		}))
	return app.Div().Class("personas").Body(rows...)
}

// testLLM lists the endpoint's models and reports what failed.
func (s *Shell) testLLM() {
	if s.testing || s.rt == nil {
		return
	}
	s.testing, s.testMsg = true, ""
	ctx := s.ctx
	ctx.Async(func() { s.checkLLM(ctx) })
}

func card(title string, body ...app.UI) app.UI {
	return app.Section().Class("card").Body(append([]app.UI{app.H2().Text(title)}, body...)...)
}

func field(label, id, hint string, input app.UI) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		input,
		app.If(hint != "", func() app.UI { return app.Small().Class("field-hint").Text(hint) }),
	)
}

func toggle(id, label string, on bool, set func(app.Context, bool)) app.UI {
	return app.Label().Class("toggle").For(id).Body(
		app.Input().Type("checkbox").ID(id).Attr("role", "switch").Checked(on).
			OnChange(func(ctx app.Context, e app.Event) { set(ctx, ctx.JSSrc().Get("checked").Bool()) }),
		app.Span().Class("toggle-track").Aria("hidden", true),
		app.Span().Text(label),
	)
}

func number(id, label string, v int, set func(app.Context, int)) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(label),
		app.Input().Type("number").ID(id).Min(1).Value(strconv.Itoa(v)).
			OnChange(func(ctx app.Context, e app.Event) {
				n, err := strconv.Atoi(ctx.JSSrc().Get("value").String())
				if err == nil {
					set(ctx, n)
				}
			}),
	)
}
