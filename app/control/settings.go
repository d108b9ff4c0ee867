package control

import "tinyrag/app/control/prefs"

// Settings is everything the user configures (app/control/prefs).
type Settings = prefs.Settings
