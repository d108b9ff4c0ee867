package main

import (
	"flag"

	"tinyrag/app/embed"
	"tinyrag/app/siteconfig"
	"tinyrag/server/envconf"
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

// appendOrigins adds the comma-separated origins in v to list, each
// normalized; the first that is not an exact origin is the error. serve
// and static read --embed-origins with it.
func appendOrigins(list *[]string, v string) error {
	for _, s := range envconf.SplitList(v) {
		n, err := embed.NormalizeOrigin(s)
		if err != nil {
			return err
		}
		*list = append(*list, n)
	}
	return nil
}
