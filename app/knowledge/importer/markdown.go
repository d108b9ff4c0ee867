package importer

import (
	"strings"
)

// convertMarkdown keeps the Markdown (headings drive chunking) but drops a
// YAML (---) or TOML (+++) front matter block, whose keys are metadata, not
// content. The title is the front matter title, else the first heading.
func convertMarkdown(text string) Document {
	text = normalizeNewlines(text)
	body, front := splitFrontMatter(text)
	title := frontMatterTitle(front)
	if title == "" {
		title = firstHeading(body)
	}
	return Document{Title: title, Text: body}
}

// splitFrontMatter returns the text after a front matter block and the
// block itself. An unterminated block is not front matter: the text is
// returned whole so nothing is lost.
func splitFrontMatter(text string) (body, front string) {
	var fence string
	switch {
	case strings.HasPrefix(text, "---\n"):
		fence = "---"
	case strings.HasPrefix(text, "+++\n"):
		fence = "+++"
	default:
		return text, ""
	}
	rest := text[len(fence)+1:]
	for off := 0; off < len(rest); {
		end := strings.IndexByte(rest[off:], '\n')
		line := rest[off:]
		if end >= 0 {
			line = rest[off : off+end]
		}
		if t := strings.TrimRight(line, " \t"); t == fence || fence == "---" && t == "..." {
			if end < 0 {
				return "", rest[:off]
			}
			return strings.TrimLeft(rest[off+end+1:], "\n"), rest[:off]
		}
		if end < 0 {
			break
		}
		off += end + 1
	}
	return text, ""
}

// frontMatterTitle finds a top-level `title: x` (YAML) or `title = "x"` (TOML).
func frontMatterTitle(front string) string {
	for line := range strings.SplitSeq(front, "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			key, val, ok = strings.Cut(line, "=")
		}
		if !ok || strings.TrimRight(key, " \t") != "title" {
			continue
		}
		val = strings.TrimSpace(val)
		if len(val) >= 2 && (val[0] == '"' || val[0] == '\'') && val[len(val)-1] == val[0] {
			val = val[1 : len(val)-1]
		}
		return val
	}
	return ""
}

// firstHeading returns the text of the first ATX (# x) or setext (x / ===)
// heading outside fenced code blocks.
func firstHeading(md string) string {
	var prev string
	fence := ""
	for line := range strings.SplitSeq(md, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if indent < 4 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")) {
			fence = trimmed[:3]
			prev = ""
			continue
		}
		if indent < 4 && strings.HasPrefix(trimmed, "#") {
			level := len(trimmed) - len(strings.TrimLeft(trimmed, "#"))
			rest := trimmed[level:]
			if level <= 6 && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
				if h := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(rest), "#")); h != "" {
					return h
				}
			}
		}
		if t := strings.TrimSpace(line); prev != "" && indent < 4 && t != "" &&
			(strings.Trim(t, "=") == "" || strings.Trim(t, "-") == "" && len(t) >= 2) {
			return prev
		}
		prev = strings.TrimSpace(line)
		if indent >= 4 {
			prev = ""
		}
	}
	return ""
}
