package kbview

import (
	"fmt"
	"math"
	"strings"
	"time"

	"tinyrag/app/control"
	"tinyrag/app/knowledge"
	"tinyrag/app/ui/i18n"
)

// What the knowledge panel says about imports and exports, made from the
// knowledge state's numbers and names in the interface's language.

// progressText describes an import in progress: count, rate, time left.
func progressText(lang string, p knowledge.Progress) string {
	s := fmt.Sprintf("%d / %d", p.Done, p.Total)
	if p.Rate > 0 {
		s += fmt.Sprintf(" · %.0f/s", p.Rate)
		if left := p.Total - p.Done; left > 0 {
			secs := math.Ceil(float64(left) / p.Rate)
			s += " · " + (time.Duration(secs) * time.Second).String() + " " + i18n.T(lang, "left")
		}
	}
	return s
}

// humanSize formats a byte count.
func humanSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// outcomeText says what an import or export did: how many documents, the
// first few imported by name, an export's size.
func outcomeText(lang string, o *control.Outcome) string {
	s := fmt.Sprintf("%s: %d", i18n.T(lang, o.Action), o.Count)
	switch {
	case o.Action == control.OutcomeExported:
		s += " (" + humanSize(o.Bytes) + ")"
	case len(o.Names) > 0:
		names := o.Names
		if o.More {
			names = append(names[:len(names):len(names)], "…")
		}
		s += " (" + strings.Join(names, ", ") + ")"
	}
	return s
}

// importErrText is what went wrong in the last import: its error (or that
// it needed the network), then the files left out.
func importErrText(lang string, k control.KnowledgeState) string {
	var msgs []string
	switch {
	case k.Offline:
		msgs = append(msgs, i18n.T(lang, "import_offline"))
	case k.Err != "":
		msgs = append(msgs, k.Err)
	}
	if len(k.Skipped) > 0 {
		msgs = append(msgs, strings.Join(k.Skipped, "; "))
	}
	return strings.Join(msgs, " — ")
}
