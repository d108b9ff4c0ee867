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

// The site owner decides what is indexed with attributes in the page:
// data-tinyrag-body marks the content (every marked element, in document
// order, and nothing else), data-tinyrag-ignore drops an element wherever
// it is, data-tinyrag-title names the title; without data-tinyrag-body
// readability chooses, as before.
func TestImport_HTMLSiteOwnerMarksTheBodyAndWhatToIgnore(t *testing.T) {
	chrome := `<nav>NAVLINK Home · Pricing · Blog</nav>`
	footer := `<footer data-tinyrag-ignore>FOOTERTEXT © Orchard Co-op · Imprint</footer>`
	tests := []struct {
		name      string
		in        string
		want      []string // in this order
		notWanted []string
		wantTitle string
		wantErr   error
	}{
		{
			name: "marked body, nav and footer ignored",
			in: `<html><head><title>Winter pruning | Orchard</title></head><body>
<nav data-tinyrag-ignore>NAVLINK Home · Pricing</nav>
<div class="cookie" data-tinyrag-ignore>COOKIEBANNER We use cookies.</div>
<main data-tinyrag-body><h1>Winter pruning</h1><p>Prune in late winter, while the buds are dormant.</p>
<aside data-tinyrag-ignore>SIDEBAR Related posts</aside><p>Remove crossing branches first.</p></main>
<p>OUTSIDE text after the main element.</p>` + footer + `</body></html>`,
			want:      []string{"Winter pruning", "Prune in late winter, while the buds are dormant.", "Remove crossing branches first."},
			notWanted: []string{"NAVLINK", "COOKIEBANNER", "SIDEBAR", "OUTSIDE", "FOOTERTEXT"},
			wantTitle: "Winter pruning | Orchard",
		},
		{
			name: "script and markup inside the marked body come out as text",
			in: `<html><head><title>Embedding</title></head><body>` + chrome + `
<article data-tinyrag-body><p>Put <code>&lt;script src="embed.js"&gt;&lt;/script&gt;</code> into <b>every</b> page &amp; done.</p>
<script>window.SECRETSCRIPT = 1</script><style>.x{color:red}</style><template>TEMPLATE</template>
<pre>if a &lt; b {
  return</pre></article></body></html>`,
			want:      []string{`Put <script src="embed.js"></script> into every page & done.`, "if a < b {\n  return"},
			notWanted: []string{"SECRETSCRIPT", "color:red", "TEMPLATE", "NAVLINK", "<b>", "&lt;", "&amp;"},
			wantTitle: "Embedding",
		},
		{
			name: "several marked elements, all in document order, nested marks once",
			in: `<body><section data-tinyrag-body><p>FIRST part.</p><div data-tinyrag-body><p>NESTED part.</p></div></section>
<p>BETWEEN unmarked.</p><div data-tinyrag-body><p>SECOND part.</p></div>
<div data-tinyrag-ignore data-tinyrag-body><p>IGNOREDBODY</p></div></body>`,
			want:      []string{"FIRST part.", "NESTED part.", "SECOND part."},
			notWanted: []string{"BETWEEN", "IGNOREDBODY"},
		},
		{
			name: "the title an element names, its value or its text",
			in: `<html><head><title>Orchard Co-op — Handbook — Storing pears</title></head><body>
<main data-tinyrag-body><h1 data-tinyrag-title>Storing  pears</h1><p>Store pears at one degree.</p></main></body></html>`,
			want:      []string{"Storing pears", "Store pears at one degree."},
			wantTitle: "Storing pears",
		},
		{
			name:      "the title from the attribute's value, no marked body",
			in:        `<html><head><title>Site — Page</title></head><body><meta data-tinyrag-title="Pears in storage"><p>Store pears at one degree and ninety percent humidity.</p></body></html>`,
			want:      []string{"Store pears at one degree"},
			wantTitle: "Pears in storage",
		},
		{
			name: "no marked body: readability as before, ignored parts still dropped",
			in: `<html><head><title>Bergtouren im Herbst</title></head><body>` + chrome + `<article><h1>Bergtouren im Herbst</h1>
<p>Der Herbst ist die schönste Zeit für Bergtouren. Die Luft ist klar, die Hütten sind weniger voll und die Farben der Lärchen leuchten golden.</p>
<p data-tinyrag-ignore>ADVERT Buy boots now, buy boots now, buy boots now, buy boots now.</p>
<p>Wichtig ist eine gute Planung: Die Tage werden kürzer, und viele Hütten schließen Ende September.</p></article>` + footer + `</body></html>`,
			want:      []string{"schönste Zeit für Bergtouren", "Wichtig ist eine gute Planung"},
			notWanted: []string{"ADVERT", "FOOTERTEXT", "NAVLINK"},
			wantTitle: "Bergtouren im Herbst",
		},
		{
			name:    "a marked body without text is refused, not replaced by the rest",
			in:      `<body><p>Plenty of text outside the marked element.</p><main data-tinyrag-body><script>x()</script></main></body>`,
			wantErr: ErrEmpty,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Import("page.html", []byte(tt.in))
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), "data-tinyrag-body") {
					t.Fatalf("err %v, want %v naming data-tinyrag-body", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			at := 0
			for _, w := range tt.want {
				i := strings.Index(doc.Text[at:], w)
				if i < 0 {
					t.Errorf("Text lacks %q after offset %d:\n%q", w, at, doc.Text)
					continue
				}
				at += i + len(w)
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
