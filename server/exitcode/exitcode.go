// Package exitcode carries a specific exit status out of a tinyrag
// command to cmd/tinyrag, which exits with it: 2 for a bad command line,
// 130 for an interrupted answer.
package exitcode

// Error is a command's failure with the process exit status it calls for.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the failure itself.
func (e *Error) Unwrap() error { return e.Err }
