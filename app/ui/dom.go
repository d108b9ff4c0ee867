package ui

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"tinyrag/app/control"
	"tinyrag/app/control/prefs"
)

// The helpers below touch the page. go-app's JS values are no-ops outside
// the browser, so they are safe to call from code the server prerenders,
// but they only do something in the browser.

// applyTheme sets the theme and language on <html>, where the stylesheet
// and screen readers look for them.
func applyTheme(s control.Settings) {
	root := app.Window().Get("document").Get("documentElement")
	root.Call("setAttribute", "data-theme", s.Theme)
	root.Call("setAttribute", "lang", s.Lang)
}

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }

// LocalStoragePrefs keeps the settings in localStorage under SettingsKey,
// as JSON.
type LocalStoragePrefs struct{}

// Load implements Prefs.
func (LocalStoragePrefs) Load() (control.Settings, bool) {
	ls := app.Window().Get("localStorage")
	if !ls.Truthy() {
		return control.Settings{}, false
	}
	v := ls.Call("getItem", prefs.SettingsKey)
	if !v.Truthy() {
		return control.Settings{}, false
	}
	var s control.Settings
	if err := json.Unmarshal([]byte(v.String()), &s); err != nil || s.Theme == "" {
		return control.Settings{}, false
	}
	return s, true
}

// Save implements Prefs. A full or forbidden localStorage throws, which
// comes back as the error.
func (LocalStoragePrefs) Save(s control.Settings) (err error) {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("localStorage refused the settings: %v", r)
		}
	}()
	ls := app.Window().Get("localStorage")
	if !ls.Truthy() {
		return errors.New("this browser has no localStorage")
	}
	ls.Call("setItem", prefs.SettingsKey, string(b))
	return nil
}
