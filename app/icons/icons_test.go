package icons

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

func TestSVG_EveryIconIsOneHiddenWellFormedSVGInCurrentColor(t *testing.T) {
	for name := range paths {
		t.Run(name, func(t *testing.T) {
			s := SVG(name)
			if !strings.HasPrefix(s, "<svg ") || !strings.HasSuffix(s, "</svg>") || strings.Count(s, "<svg") != 1 {
				t.Fatalf("not one <svg> element: %s", s)
			}
			for _, want := range []string{`aria-hidden="true"`, `stroke="currentColor"`, `viewBox="0 0 24 24"`, `class="icon icon-` + name + `"`} {
				if !strings.Contains(s, want) {
					t.Errorf("missing %s: %s", want, s)
				}
			}
			for _, r := range s {
				if r > 0x7e {
					t.Errorf("non-ASCII %q in the markup: an icon must not depend on a font", r)
				}
			}
			dec := xml.NewDecoder(strings.NewReader(s))
			for {
				if _, err := dec.Token(); err == io.EOF {
					break
				} else if err != nil {
					t.Fatalf("not well-formed: %v\n%s", err, s)
				}
			}
		})
	}
}

func TestSVG_UnknownNameIsTheWrench(t *testing.T) {
	if SVG("no-such-icon") != SVG("wrench") {
		t.Error("an unknown icon is not the wrench")
	}
	if Has("no-such-icon") || !Has("trash") {
		t.Error("Has is wrong")
	}
}

func TestTool_ProtocolToolsHaveIconsOfTheirOwn(t *testing.T) {
	seen := map[string]string{}
	for _, tool := range []string{"rag_knowledge", "url_fetch", "websearch", "wikipedia", "calculate", "nanogo"} {
		s := Tool(tool)
		if s == SVG("wrench") {
			t.Errorf("%s has no icon of its own", tool)
		}
		if other, ok := seen[s]; ok {
			t.Errorf("%s and %s share an icon", tool, other)
		}
		seen[s] = tool
	}
	if Tool("shell") != SVG("wrench") {
		t.Error("an unknown tool does not get the wrench")
	}
}
