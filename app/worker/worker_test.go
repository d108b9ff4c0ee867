package worker_test

import (
	"testing"

	"tinyrag/app/worker"
)

func TestExit_FindsThePanicAndTheLogsTail(t *testing.T) {
	cases := []struct {
		name, log, panic, tail string
	}{
		{"no log", "", "", ""},
		{"a panic among other lines", "starting\npanic: boom\n\ngoroutine 7 [running]:\n", "panic: boom", "panic: boom |  | goroutine 7 [running]:"},
		{"a panic on the last line", "panic: at the end", "panic: at the end", "panic: at the end"},
		{"no panic, the last three lines", "a\nb\nc\nd\n", "", "b | c | d"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := &worker.Exit{Message: "stopped", Log: c.log}
			if got := e.Panic(); got != c.panic {
				t.Errorf("Panic() = %q, want %q", got, c.panic)
			}
			if got := e.Tail(3); got != c.tail {
				t.Errorf("Tail(3) = %q, want %q", got, c.tail)
			}
			if e.Error() != "stopped" {
				t.Errorf("Error() = %q, want the message", e.Error())
			}
		})
	}
}
