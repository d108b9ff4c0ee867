package chats

import (
	"fmt"
	"strings"
)

// MarkdownOptions say how Markdown writes a chat: the words it uses (the
// interface's language) and what only the app knows — an answer's text
// without its tool blocks and where a source links.
type MarkdownOptions struct {
	You, Assistant, Sources, Related, Feedback, NoMatch string
	// Reasons name the feedback reasons (Reasons' values) in words; a
	// reason without a name is written as it is.
	Reasons map[string]string
	// Answer is an answer's text as a reader sees it (nil: Message.Answer,
	// else the content).
	Answer func(*Message) string
	// Link is where a citation links, "" for none (nil: none). A related
	// page links to its URL.
	Link func(Citation) string
}

// Markdown writes the chat as a Markdown document: its title, then each
// question and answer with the answer's sources, the related pages and the
// visitor's feedback. It is what "copy this conversation" puts on the
// clipboard, and what a site owner reads when a visitor shares it.
func (c *Chat) Markdown(o MarkdownOptions) string {
	var b strings.Builder
	title := c.Title
	if title == "" {
		title = "tinyRAG"
	}
	fmt.Fprintf(&b, "# %s\n", oneLine(title))
	link := func(c Citation) string {
		if o.Link != nil {
			return o.Link(c)
		}
		return ""
	}
	for _, m := range c.Messages {
		if m.Role == RoleUser {
			fmt.Fprintf(&b, "\n## %s\n\n%s\n", o.You, strings.TrimSpace(m.Content))
			continue
		}
		text := m.Answer
		if o.Answer != nil {
			text = o.Answer(m)
		} else if text == "" {
			text = m.Content
		}
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", o.Assistant, strings.TrimSpace(text))
		if len(m.Citations) > 0 {
			fmt.Fprintf(&b, "\n%s:\n\n", o.Sources)
			for i, ct := range m.Citations {
				fmt.Fprintf(&b, "%d. %s\n", i+1, mdLink(ct.Title, ct.Source, link(ct)))
			}
		}
		if len(m.Related) > 0 {
			var rs []string
			for _, r := range m.Related {
				rs = append(rs, mdLink(r.Title, r.Source, r.URL))
			}
			fmt.Fprintf(&b, "\n%s: %s\n", o.Related, strings.Join(rs, ", "))
		}
		if m.NoMatch && o.NoMatch != "" {
			fmt.Fprintf(&b, "\n_%s_\n", o.NoMatch)
		}
		if f := m.Feedback; f != nil {
			line := f.Rating
			if f.Reason != "" {
				reason := f.Reason
				if w, ok := o.Reasons[reason]; ok {
					reason = w
				}
				line += ", " + reason
			}
			if f.Note != "" {
				line += ": " + oneLine(f.Note)
			}
			fmt.Fprintf(&b, "\n%s: %s\n", o.Feedback, line)
		}
	}
	return b.String()
}

// mdLink writes a source as a Markdown link, or as its title and name
// when it has no address.
func mdLink(title, source, href string) string {
	title = strings.NewReplacer("[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`).Replace(oneLine(title))
	if title == "" {
		title = source
	}
	if href == "" {
		if source != "" && source != title {
			return title + " (" + source + ")"
		}
		return title
	}
	return "[" + title + "](" + strings.NewReplacer("(", "%28", ")", "%29", " ", "%20").Replace(href) + ")"
}

// oneLine folds s onto one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
