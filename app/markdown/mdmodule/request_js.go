//go:build js && wasm

package mdmodule

import (
	"syscall/js"

	"tinyrag/app/markdown/answer"
)

// JS is the request as the JavaScript object markdown.wasm reads with
// RequestFrom.
func (r Request) JS() js.Value {
	cards := make([]any, len(r.Cards))
	for i, c := range r.Cards {
		cards[i] = map[string]any{
			"start": c.Start, "end": c.End, "id": c.ID, "tool": c.Tool, "input": c.Input,
			"status": c.Status, "result": c.Result, "error": c.Error,
		}
	}
	expanded := make([]any, 0, len(r.Options.Expanded))
	for id, open := range r.Options.Expanded {
		if open {
			expanded = append(expanded, id)
		}
	}
	links := make([]any, len(r.Options.CiteLinks))
	for i, l := range r.Options.CiteLinks {
		links[i] = l
	}
	return js.ValueOf(map[string]any{
		"text":  r.Text,
		"cards": cards,
		"options": map[string]any{
			"allowRun": r.Options.AllowRun, "lang": r.Options.Lang, "streaming": r.Options.Streaming,
			"expanded": expanded, "citeLinks": links, "citeTarget": r.Options.CiteTarget,
		},
	})
}

// RequestFrom reads a request made by Request.JS. Missing or mistyped
// fields read as their zero values.
func RequestFrom(v js.Value) Request {
	if v.Type() != js.TypeObject {
		return Request{}
	}
	r := Request{Text: str(v, "text")}
	if cards := v.Get("cards"); cards.Type() == js.TypeObject && cards.Length() > 0 {
		for i := 0; i < cards.Length(); i++ {
			c := cards.Index(i)
			r.Cards = append(r.Cards, answer.Card{
				Start: num(c, "start"), End: num(c, "end"), ID: str(c, "id"), Tool: str(c, "tool"),
				Input: str(c, "input"), Status: str(c, "status"), Result: str(c, "result"), Error: str(c, "error"),
			})
		}
	}
	o := v.Get("options")
	if o.Type() != js.TypeObject {
		return r
	}
	r.Options = answer.Options{
		AllowRun: o.Get("allowRun").Truthy(), Lang: str(o, "lang"), Streaming: o.Get("streaming").Truthy(),
		CiteTarget: str(o, "citeTarget"),
	}
	if ex := o.Get("expanded"); ex.Type() == js.TypeObject && ex.Length() > 0 {
		r.Options.Expanded = make(map[string]bool, ex.Length())
		for i := 0; i < ex.Length(); i++ {
			r.Options.Expanded[ex.Index(i).String()] = true
		}
	}
	if links := o.Get("citeLinks"); links.Type() == js.TypeObject && links.Length() > 0 {
		for i := 0; i < links.Length(); i++ {
			r.Options.CiteLinks = append(r.Options.CiteLinks, links.Index(i).String())
		}
	}
	return r
}

func str(v js.Value, name string) string {
	if v.Type() != js.TypeObject {
		return ""
	}
	if f := v.Get(name); f.Type() == js.TypeString {
		return f.String()
	}
	return ""
}

func num(v js.Value, name string) int {
	if v.Type() != js.TypeObject {
		return 0
	}
	if f := v.Get(name); f.Type() == js.TypeNumber {
		return f.Int()
	}
	return 0
}
