package main

import (
	"flag"

	"tinyrag/app/siteconfig"
)

// starterFlag adds --starter to a command: a starter question the welcome
// screen offers visitors (tinyrag.json "starters"); repeatable.
func starterFlag(fs *flag.FlagSet, starters *[]string) {
	fs.Func("starter", "a question the welcome screen offers visitors, in place of the app's own suggestions (tinyrag.json \"starters\"); repeatable, at most 8 of at most 200 characters", func(v string) error {
		*starters = append(*starters, v)
		return nil
	})
}

// checkStarters trims the starters and refuses any over the bounds
// tinyrag.json has, so the site never publishes one the app drops.
func checkStarters(starters []string) ([]string, error) {
	if len(starters) == 0 {
		return nil, nil
	}
	return siteconfig.CheckStarters(starters)
}
