package pwa

import "encoding/json"

// Icon is one manifest icon; Src is relative to the app's base.
type Icon struct {
	Src     string `json:"src"`
	Sizes   string `json:"sizes"`
	Type    string `json:"type"`
	Purpose string `json:"purpose,omitempty"`
}

// App is what the manifest says about the app.
type App struct {
	Name, ShortName, Description string
	BackgroundColor, ThemeColor  string
	Lang                         string
	Icons                        []Icon
}

// Manifest returns the web app manifest. start_url, scope, id and icon
// URLs are relative: the browser resolves them against the manifest's own
// URL, which sits at the app's base, so one manifest serves / and any
// sub-path.
func Manifest(a App) ([]byte, error) {
	m := struct {
		ID              string `json:"id"`
		Name            string `json:"name"`
		ShortName       string `json:"short_name"`
		Description     string `json:"description,omitempty"`
		Lang            string `json:"lang,omitempty"`
		StartURL        string `json:"start_url"`
		Scope           string `json:"scope"`
		Display         string `json:"display"`
		BackgroundColor string `json:"background_color"`
		ThemeColor      string `json:"theme_color"`
		Icons           []Icon `json:"icons"`
	}{
		ID: "./", Name: a.Name, ShortName: a.ShortName, Description: a.Description, Lang: a.Lang,
		StartURL: "./", Scope: "./", Display: "standalone",
		BackgroundColor: a.BackgroundColor, ThemeColor: a.ThemeColor, Icons: a.Icons,
	}
	return json.MarshalIndent(m, "", "  ")
}
