// Package settingsview is the settings page: the model's endpoint, key and
// model with a connection test, the theme and languages, the personas, and
// the tools and their limits. Every change is saved at once, through the
// controller's Model part (app/control).
package settingsview

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/control"
	"tinyrag/app/control/prefs"
	"tinyrag/app/ui/i18n"
	"tinyrag/app/ui/uikit"
)

// Page is the settings. Every change is saved at once: there is no "Save"
// to forget.
type Page struct {
	app.Compo
	Ctrl *control.Controller

	settings control.Settings
	model    control.ModelState
	test     control.ConnTest
	edit     control.Settings // what the handlers change
}

// OnMount observes the settings and the model's state (its models and the
// connection test).
func (p *Page) OnMount(ctx app.Context) {
	ctx.ObserveState(control.StateSettings, &p.settings)
	ctx.ObserveState(control.StateModel, &p.model)
	ctx.ObserveState(control.StateConnTest, &p.test)
}

// Render implements app.Composer.
func (p *Page) Render() app.UI {
	l := p.settings.Lang
	// go-app keeps an element's first handler while its code and scope
	// stay the same, so handlers must not capture this render's values:
	// they change p.edit, a copy of the settings as they are now, and
	// hand it over.
	p.edit = p.settings
	p.edit.Personas = slices.Clone(p.settings.Personas)
	st := &p.edit
	changed := func(app.Context) { p.Ctrl.Model.SetSettings(p.edit) }

	auto := i18n.T(l, "model_auto")
	if len(p.model.Models) > 0 {
		auto += " (" + p.model.Models[0] + ")"
	}
	models := []app.UI{app.Option().Value("").Text(auto)}
	seen := false
	for _, m := range p.model.Models {
		seen = seen || m == st.Model
		models = append(models, app.Option().Value(m).Text(m).Selected(m == st.Model))
	}
	if st.Model != "" && !seen {
		models = append(models, app.Option().Value(st.Model).Text(st.Model).Selected(true))
	}

	themes := make([]app.UI, 0, len(prefs.Themes))
	for _, t := range prefs.Themes {
		id := t.ID
		themes = append(themes, app.Button().Class("theme-swatch").Type("button").ID("theme-"+id).
			Attr("data-swatch", id).Aria("pressed", st.Theme == id).Title(t.Name).
			Body(app.Span().Class("swatch-dots").Aria("hidden", true).Body(app.Span(), app.Span(), app.Span()), app.Span().Text(t.Name)).
			OnClick(func(ctx app.Context, e app.Event) { st.Theme = id; changed(ctx) }))
	}
	langs := make([]app.UI, 0, len(i18n.Languages))
	for _, lg := range i18n.Languages {
		langs = append(langs, app.Option().Value(lg.Code).Text(lg.Name).Selected(st.Lang == lg.Code))
	}
	answerLangs := make([]app.UI, 0, len(prefs.AnswerLanguages))
	for _, a := range prefs.AnswerLanguages {
		label := a
		if a == "" {
			label = i18n.T(l, "answer_auto")
		}
		answerLangs = append(answerLangs, app.Option().Value(a).Text(label).Selected(st.AnswerLang == a))
	}
	personaOpts := []app.UI{app.Option().Value("").Text(i18n.T(l, "none"))}
	for _, p := range st.Personas {
		personaOpts = append(personaOpts, app.Option().Value(p.Name).Text(p.Name).Selected(st.Persona == p.Name))
	}

	testCls := "form-error"
	if p.test.OK {
		testCls = "form-ok"
	}

	return app.Main().Class("main settings-page").ID("settings").Aria("label", i18n.T(l, "settings")).Body(
		app.Header().Class("topbar").Body(
			&uikit.MenuButton{Lang: l},
			app.H1().Text(i18n.T(l, "settings")),
			app.Button().Class("btn").ID("settings-close").Type("button").Text(i18n.T(l, "close")).
				OnClick(func(ctx app.Context, e app.Event) {
					uikit.SetView(ctx, func(v *uikit.View) { v.Page = uikit.PageChat })
				}),
		),
		app.Div().Class("settings-scroll").Body(
			app.Div().Class("settings-grid").Body(
				card(i18n.T(l, "llm"),
					field(i18n.T(l, "endpoint"), "set-endpoint", i18n.T(l, p.Ctrl.Model.EndpointHint()),
						app.Input().ID("set-endpoint").Type("url").Placeholder(p.Ctrl.Model.EndpointPlaceholder()).Value(st.Endpoint).
							OnChange(func(ctx app.Context, e app.Event) {
								st.Endpoint = ctx.JSSrc().Get("value").String()
								changed(ctx)
							})),
					field(i18n.T(l, "api_key"), "set-key", i18n.T(l, "api_key_hint"),
						app.Input().ID("set-key").Type("password").Attr("autocomplete", "off").Value(st.APIKey).
							OnChange(func(ctx app.Context, e app.Event) {
								st.APIKey = ctx.JSSrc().Get("value").String()
								changed(ctx)
							})),
					field(i18n.T(l, "model"), "set-model", "",
						app.Select().ID("set-model").Body(models...).
							OnChange(func(ctx app.Context, e app.Event) { st.Model = ctx.JSSrc().Get("value").String(); changed(ctx) })),
					app.Div().Class("row").Body(
						app.Button().Class("btn primary").ID("test-conn").Type("button").Disabled(p.test.Testing).
							Text(map[bool]string{true: i18n.T(l, "testing"), false: i18n.T(l, "test_conn")}[p.test.Testing]).
							OnClick(func(ctx app.Context, e app.Event) { p.Ctrl.Model.CheckModel() }),
						app.If(p.test.Done && !p.test.Testing, func() app.UI {
							return app.Span().Class(testCls).ID("test-result").Attr("role", "status").Text(connTestText(l, p.test))
						}),
					),
				),
				card(i18n.T(l, "appearance"),
					app.Div().Class("field").Body(
						app.Span().Class("field-label").Text(i18n.T(l, "theme")),
						app.Div().Class("swatches").Attr("role", "group").Aria("label", i18n.T(l, "theme")).Body(themes...),
					),
					field(i18n.T(l, "ui_lang"), "set-lang", "",
						app.Select().ID("set-lang").Body(langs...).
							OnChange(func(ctx app.Context, e app.Event) { st.Lang = ctx.JSSrc().Get("value").String(); changed(ctx) })),
					field(i18n.T(l, "answer_lang"), "set-answer-lang", "",
						app.Select().ID("set-answer-lang").Body(answerLangs...).
							OnChange(func(ctx app.Context, e app.Event) { st.AnswerLang = ctx.JSSrc().Get("value").String(); changed(ctx) })),
				),
				card(i18n.T(l, "personas"),
					field(i18n.T(l, "persona"), "set-persona", "",
						app.Select().ID("set-persona").Body(personaOpts...).
							OnChange(func(ctx app.Context, e app.Event) { st.Persona = ctx.JSSrc().Get("value").String(); changed(ctx) })),
					p.renderPersonas(st, changed),
				),
				card(i18n.T(l, "tools"),
					toggle("set-nanogo", i18n.T(l, "allow_nanogo"), st.AllowNanoGo, func(ctx app.Context, v bool) { st.AllowNanoGo = v; changed(ctx) }),
					toggle("set-web", i18n.T(l, "auto_web"), !st.NoWebSearch, func(ctx app.Context, v bool) { st.NoWebSearch = !v; changed(ctx) }),
					toggle("set-debug", i18n.T(l, "debug"), st.Debug, func(ctx app.Context, v bool) { st.Debug = v; changed(ctx) }),
					app.Div().Class("caps").Body(
						number("set-max-total", i18n.T(l, "max_tools_total"), st.MaxToolsTotal, func(ctx app.Context, v int) { st.MaxToolsTotal = v; changed(ctx) }),
						number("set-max-round", i18n.T(l, "max_tools_round"), st.MaxToolsPerRound, func(ctx app.Context, v int) { st.MaxToolsPerRound = v; changed(ctx) }),
						number("set-max-cont", i18n.T(l, "max_cont"), st.MaxContinuations, func(ctx app.Context, v int) { st.MaxContinuations = v; changed(ctx) }),
						number("set-timeout", i18n.T(l, "tool_timeout"), st.ToolTimeoutSec, func(ctx app.Context, v int) { st.ToolTimeoutSec = v; changed(ctx) }),
					),
				),
			),
		),
	)
}

func (p *Page) renderPersonas(st *control.Settings, changed func(app.Context)) app.UI {
	l := st.Lang
	var rows []app.UI
	for i := range st.Personas {
		i := i
		p := st.Personas[i]
		rows = append(rows, app.Div().Class("persona").Body(
			app.Input().Class("field-input").Value(p.Name).Aria("label", i18n.T(l, "persona_name")).
				OnChange(func(ctx app.Context, e app.Event) {
					old := st.Personas[i].Name
					st.Personas[i].Name = ctx.JSSrc().Get("value").String()
					if st.Persona == old {
						st.Persona = st.Personas[i].Name
					}
					changed(ctx)
				}),
			app.Textarea().Class("field-input").Rows(2).Aria("label", i18n.T(l, "persona_prompt")).Text(p.Prompt).
				OnChange(func(ctx app.Context, e app.Event) {
					st.Personas[i].Prompt = ctx.JSSrc().Get("value").String()
					changed(ctx)
				}),
			app.Button().Class("row-btn danger").Type("button").Aria("label", i18n.T(l, "delete")+": "+p.Name).Body(uikit.Icon("trash")).
				OnClick(func(ctx app.Context, e app.Event) {
					st.Personas = append(st.Personas[:i:i], st.Personas[i+1:]...)
					changed(ctx)
				}),
		))
	}
	rows = append(rows, app.Button().Class("btn small").Type("button").Text("+ "+i18n.T(l, "add_persona")).
		OnClick(func(ctx app.Context, e app.Event) {
			st.Personas = append(st.Personas, prefs.Persona{Name: fmt.Sprintf("Persona %d", len(st.Personas)+1)})
			changed(ctx)
		}))
	return app.Div().Class("personas").Body(rows...)
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

// connTestText says how the connection test went: how many models the
// endpoint offers, or why it cannot be reached.
func connTestText(lang string, t control.ConnTest) string {
	switch {
	case t.OK:
		return fmt.Sprintf(i18n.T(lang, "conn_ok"), t.Models)
	case t.ErrKey != "":
		return i18n.T(lang, t.ErrKey)
	}
	return t.Err
}
