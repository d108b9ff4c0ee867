// Package loadavg reads the machine's load average, which every benchmark
// prints beside its figures: on a shared machine a time means little
// without it.
package loadavg

import (
	"os"
	"strings"
)

// String returns the 1, 5 and 15 minute load averages as /proc/loadavg
// gives them ("0.52 0.61 0.70"), or "unknown" where there is none.
func String() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return parse(string(b))
}

func parse(s string) string {
	f := strings.Fields(s)
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
