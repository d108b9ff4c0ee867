package knowledge

import (
	"runtime/debug"
	"slices"
	"sync"
)

// GOGC is process-wide, and work that changes it may overlap: an import
// collects less often (gcPercentIndexing) while a site bundle makes its
// tables with collection off. Each asks through AskGC, so that one
// ending does not undo what another still needs.
var gcAsks struct {
	sync.Mutex
	base    int    // GOGC before the first of the current asks
	percent []*int // the asks under way
}

// AskGC sets the collector's GOGC to percent (-1: off) until the
// returned func is called. While asks overlap, collection is off if any
// asks for that, else the largest percent asked for holds; when the last
// ends, GOGC returns to what it was before the first.
func AskGC(percent int) (done func()) {
	ask := &percent
	gcAsks.Lock()
	if len(gcAsks.percent) == 0 {
		gcAsks.base = debug.SetGCPercent(percent)
	}
	gcAsks.percent = append(gcAsks.percent, ask)
	applyGCAsks()
	gcAsks.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			gcAsks.Lock()
			defer gcAsks.Unlock()
			gcAsks.percent = slices.DeleteFunc(gcAsks.percent, func(p *int) bool { return p == ask })
			applyGCAsks()
		})
	}
}

// applyGCAsks sets GOGC from the asks under way. The caller holds
// gcAsks.
func applyGCAsks() {
	if len(gcAsks.percent) == 0 {
		debug.SetGCPercent(gcAsks.base)
		return
	}
	p := 0
	for _, q := range gcAsks.percent {
		if *q < 0 {
			p = -1
			break
		}
		p = max(p, *q)
	}
	debug.SetGCPercent(p)
}
