package chats

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Ratings of an answer.
const (
	RatingUp   = "up"
	RatingDown = "down"
)

// Reasons are what a visitor may say is wrong with an answer: a short,
// fixed list, so that a site owner can count them.
var Reasons = []string{"incorrect", "not_helpful", "missing_sources", "other"}

// MaxNoteRunes bounds the note a visitor writes with a rating.
const MaxNoteRunes = 1000

// Feedback is a visitor's rating of one answer, kept with it.
type Feedback struct {
	Rating string    `json:"rating"`
	Reason string    `json:"reason,omitempty"`
	Note   string    `json:"note,omitempty"`
	Time   time.Time `json:"time"`
}

// Check returns f with its note trimmed, or an error saying what is
// wrong: a rating that is neither up nor down, a reason not in Reasons, a
// note over MaxNoteRunes.
func (f Feedback) Check() (Feedback, error) {
	if f.Rating != RatingUp && f.Rating != RatingDown {
		return Feedback{}, fmt.Errorf("feedback: the rating is %q, want %q or %q", f.Rating, RatingUp, RatingDown)
	}
	if f.Reason != "" && !slices.Contains(Reasons, f.Reason) {
		return Feedback{}, fmt.Errorf("feedback: the reason %q is not one of %s", f.Reason, strings.Join(Reasons, ", "))
	}
	f.Note = strings.TrimSpace(f.Note)
	if n := utf8.RuneCountInString(f.Note); n > MaxNoteRunes {
		return Feedback{}, fmt.Errorf("feedback: the note is %d characters, the limit is %d", n, MaxNoteRunes)
	}
	if !utf8.ValidString(f.Note) {
		return Feedback{}, errors.New("feedback: the note is not valid UTF-8")
	}
	return f, nil
}

// Related is a page of the knowledge base an answer did not cite but that
// matches its question: something to read next.
type Related struct {
	Title  string `json:"title"`
	Source string `json:"source"`
	// URL is the page's address when the answer ended.
	URL string `json:"url,omitempty"`
}
