package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/control"
	"tinyrag/app/ui/i18n"
)

// ModelPill names the model answers come from, with the endpoint's host
// when that is not this machine: where the question and its passages go.
type ModelPill struct {
	app.Compo
	Lang string

	model    control.ModelState
	settings control.Settings
	status   control.Status
}

// OnMount observes the model's state and the chosen model.
func (p *ModelPill) OnMount(ctx app.Context) {
	ctx.ObserveState(control.StateModel, &p.model)
	ctx.ObserveState(control.StateSettings, &p.settings)
	ctx.ObserveState(control.StateStatus, &p.status)
}

// Render implements app.Composer.
func (p *ModelPill) Render() app.UI {
	l := p.Lang
	cls, label, host := "dot", i18n.T(l, "no_model"), ""
	if !p.status.Ready {
		label = i18n.T(l, "starting")
	}
	switch p.model.Status {
	case control.LLMOK:
		cls += " ok"
		label = p.settings.Model
		if label == "" {
			label = i18n.T(l, "model_auto")
			if len(p.model.Models) > 0 {
				label = p.model.Models[0]
			}
		}
		host = p.model.Host
	case control.LLMDown:
		cls += " err"
		label = i18n.T(l, "offline_mode")
		switch p.model.Net {
		case control.NetOffline:
			label = i18n.T(l, "offline")
		case control.NetServerDown:
			label = i18n.T(l, "offline_server")
		}
	}
	title := ""
	if host != "" {
		title = sprintf(i18n.T(l, "model_at"), host)
	}
	return app.Span().Class("model-pill").Attr("role", "status").Title(title).Body(
		app.Span().Class(cls).Aria("hidden", true),
		app.Span().Class("model-name").Text(label),
		app.If(host != "", func() app.UI { return app.Span().Class("model-host").Text(host) }),
	)
}
