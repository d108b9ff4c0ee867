package importer

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

const articleHTML = `<!DOCTYPE html>
<html lang="de-AT">
<head><title>Bergtouren im Herbst | Alpenblog</title>
<style>body { color: red }</style>
<script>var tracking = "SECRET_SCRIPT";</script>
</head>
<body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article>
<h1>Bergtouren im Herbst</h1>
<p>Der Herbst ist die schönste Zeit für Bergtouren. Die Luft ist klar, die Hütten sind weniger voll
und die Farben der Lärchen leuchten golden über den Tälern. Wer früh aufbricht, erlebt den
Sonnenaufgang über dem Nebelmeer.</p>
<p>Wichtig ist eine gute Planung: Die Tage werden kürzer, und viele Hütten schließen Ende September.
Nehmen Sie eine Stirnlampe mit und prüfen Sie den Wetterbericht am Vorabend genau.</p>
<p>Für Einsteiger eignen sich Rundwege mit wenig Höhenmetern. Fortgeschrittene wagen sich auf
Klettersteige, die im Herbst oft trocken und gut begehbar sind. <b>Tipp:</b> Warme Kleidung einpacken.</p>
<pre>Checkliste:
  - Stirnlampe
  - Jacke</pre>
</article>
<footer>© Alpenblog <script>document.write("SECRET_INLINE")</script></footer>
</body></html>`

func TestImport_HTMLArticleIsReadableTextWithoutMarkup(t *testing.T) {
	doc, err := Import("tour.html", []byte(articleHTML))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Language != "de-AT" {
		t.Errorf("Language = %q, want de-AT", doc.Language)
	}
	if !strings.Contains(doc.Title, "Bergtouren im Herbst") {
		t.Errorf("Title = %q, want the page title", doc.Title)
	}
	for _, want := range []string{"schönste Zeit für Bergtouren", "Tipp: Warme Kleidung", "Checkliste:\n  - Stirnlampe"} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("Text lacks %q:\n%s", want, doc.Text)
		}
	}
	for _, banned := range []string{"SECRET_SCRIPT", "SECRET_INLINE", "color: red", "<", "&amp;"} {
		if strings.Contains(doc.Text, banned) {
			t.Errorf("Text contains %q:\n%s", banned, doc.Text)
		}
	}
}

func TestImport_HTMLTextKeepsStructureAndDropsInvisibleParts(t *testing.T) {
	tests := []struct {
		name, in  string
		want      []string
		notWanted []string
		wantTitle string
	}{
		{
			name:      "short page",
			in:        `<html><head><title> Contact </title></head><body><div>Call us: 555-0100</div><div>Mon–Fri</div></body></html>`,
			want:      []string{"Call us: 555-0100\n", "\nMon–Fri"},
			wantTitle: "Contact",
		},
		{
			name:      "fragment without html element, title from h1",
			in:        `<h1>Prices</h1><ul><li>Tea &amp; cake</li><li>Coffee</li></ul><table><tr><th>a</th><td>1</td></tr></table>`,
			want:      []string{"Prices", "- Tea & cake\n- Coffee", "a\t1"},
			wantTitle: "Prices",
		},
		{
			name:      "hidden and non-text elements dropped",
			in:        `<body><p>shown</p><p hidden>HIDDEN1</p><div style="display: none">HIDDEN2</div><span aria-hidden="true">HIDDEN3</span><noscript>HIDDEN4</noscript><template>HIDDEN5</template><svg><text>HIDDEN6</text></svg></body>`,
			want:      []string{"shown"},
			notWanted: []string{"HIDDEN"},
		},
		{
			name:      "whitespace collapsed, br is a line break",
			in:        "<p>one\n   two\t three<br>four</p>",
			want:      []string{"one two three\nfour"},
			notWanted: []string{"  "},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Import("page.html", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(doc.Text, w) {
					t.Errorf("Text lacks %q:\n%q", w, doc.Text)
				}
			}
			for _, n := range tt.notWanted {
				if strings.Contains(doc.Text, n) {
					t.Errorf("Text contains %q:\n%q", n, doc.Text)
				}
			}
			if tt.wantTitle != "" && doc.Title != tt.wantTitle {
				t.Errorf("Title = %q, want %q", doc.Title, tt.wantTitle)
			}
		})
	}
}

func TestImport_HTMLNonArticleKeepsAllText(t *testing.T) {
	// A link directory: readability would keep one block; all of it matters.
	var b strings.Builder
	b.WriteString("<html><body><h1>Directory</h1>")
	for i := range 40 {
		fmt.Fprintf(&b, `<div class="sidebar"><ul><li><a href="/p%d">Product %d</a> costs %d euro</li></ul></div>`, i, i, i*10)
	}
	b.WriteString(`<article><p>` + strings.Repeat("A long article paragraph about nothing in particular. ", 5) + `</p></article></body></html>`)
	doc, err := Import("dir.html", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- Product 0 costs 0 euro", "- Product 39 costs 390 euro", "A long article paragraph"} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("Text lacks %q:\n%s", want, doc.Text)
		}
	}
}

func TestImport_HTMLDeepNestingStillYieldsText(t *testing.T) {
	// Depths on both sides of the tree builder's 512 open-element limit:
	// below it the tree path runs, above it the tokenizer fallback does.
	for _, depth := range []int{300, 100_000} {
		in := "<html lang=en><head><title>Deep</title><script>SECRET</script></head><body>" +
			strings.Repeat("<div>", depth) + "deep <b>text</b><pre>a  b</pre>" + strings.Repeat("</div>", depth) + "</body></html>"
		doc, err := Import("deep.html", []byte(in))
		if err != nil {
			t.Fatalf("depth %d: %v", depth, err)
		}
		if want := "deep text\n\na  b"; strings.TrimSpace(doc.Text) != want {
			t.Errorf("depth %d: Text = %q, want %q", depth, doc.Text, want)
		}
		if doc.Title != "Deep" || doc.Language != "en" {
			t.Errorf("depth %d: Title, Language = %q, %q; want Deep, en", depth, doc.Title, doc.Language)
		}
	}
}

func TestImport_HTMLOnlyScriptsIsEmpty(t *testing.T) {
	_, err := Import("app.html", []byte("<html><head><script>alert(1)</script></head><body><script>x()</script></body></html>"))
	if !errors.Is(err, ErrEmpty) {
		t.Fatalf("err = %v, want ErrEmpty", err)
	}
}

func TestImport_HTMLMetaCharsetHonouredForLegacyBytes(t *testing.T) {
	// "Привет" in windows-1251, declared by a meta tag.
	in := []byte("<html><head><meta charset=\"windows-1251\"><title>t</title></head><body><p>\xcf\xf0\xe8\xe2\xe5\xf2</p></body></html>")
	doc, err := Import("ru.html", in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Text, "Привет") {
		t.Errorf("Text = %q, want Привет decoded from windows-1251", doc.Text)
	}
}
