// Package knowledge is tinyRAG's knowledge base: documents cut into chunks,
// indexed in memory with bleve (scorch, BM25), searched with per-document
// deduplication, persisted through a Store, and offered to the model as the
// rag_knowledge tool. The same code runs natively (CLI, eval, tests) and in
// the browser (js/wasm).
package knowledge

import (
	"encoding/hex"
	"hash/fnv"
	"strconv"
	"time"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"

	"tinyrag/app/knowledge/memindex"
)

// Input is one piece of text to add, as produced by an importer.
type Input struct {
	// Title is shown in citations; it is indexed with a higher weight than
	// the body.
	Title string
	// Source identifies where the text came from (a path, a URL, a corpus
	// id). Adding an Input with the Source of an existing document replaces
	// that document.
	Source string
	// Type is the importer's kind of content: "text", "markdown", "html", …
	Type string
	// Language is the text's language ("en", "de"); empty means the
	// knowledge base's language.
	Language string
	// Text is the plain text (Markdown headings are understood).
	Text string
	// ID names the document when it is not empty; by default the id is
	// derived from the source and the text (a re-import of an edited
	// source is told apart). The index orders documents by id, and the
	// order decides ties between equal scores and numbers the chunks: a
	// site bundle gives ids that keep each page's place across
	// republishes (bundle.Order). It must not contain '#'.
	ID string
}

// Document describes one imported source.
type Document struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Source   string `json:"source"`
	Type     string `json:"type"`
	Language string `json:"language"`
	// Added is when the document was imported; a site bundle's
	// documents have none, so that rebuilding an unchanged page writes
	// the same fragment (bundle.Write).
	Added time.Time `json:"added,omitzero"`
	// Size is the length of the text in bytes.
	Size int `json:"size"`
	// Chunks is how many chunks the text was cut into.
	Chunks int `json:"chunks"`
}

// Chunk is one indexed piece of a document.
type Chunk struct {
	// ID is DocID#N, unique across the knowledge base.
	ID    string `json:"id"`
	DocID string `json:"doc_id"`
	// N is the chunk's position in its document, from 0.
	N int `json:"n"`
	// Heading is the Markdown heading path the chunk sits under
	// ("Install › Linux"); it is indexed with the chunk as its context.
	Heading string `json:"heading,omitempty"`
	// Text is the chunk's text, starting with Overlap bytes repeated from
	// the end of the previous chunk.
	Text    string `json:"text"`
	Overlap int    `json:"overlap,omitempty"`
}

// docID derives a document's id from its source and text, so re-importing an
// unchanged source is recognised, and a changed one gets a fresh id: the
// index never holds two live versions under one id.
func docID(in Input) string {
	// FNV, not SHA-256: WASM has no SHA instructions and hashing whole
	// texts showed in profiles; ids need stability, not secrecy.
	h := fnv.New128a()
	h.Write([]byte(in.Source))
	h.Write([]byte{0})
	h.Write([]byte(in.Title))
	h.Write([]byte{0})
	h.Write([]byte(in.Text))
	return hex.EncodeToString(h.Sum(nil)[:10])
}

// chunkID names chunk n of a document.
func chunkID(doc string, n int) string { return doc + "#" + strconv.Itoa(n) }

// chunkDocument is the index document of chunk c of the document titled
// title.
func chunkDocument(an analysis.Analyzer, title string, c *Chunk) *document.Document {
	first := ""
	if c.N == 0 {
		first = title
	}
	return memindex.NewDocument(an, c.ID, first, ChunkBody(title, c))
}

// ChunkBody is the text indexed as a chunk's body. It carries the chunk's
// context (title and heading path) too: BM25 over one field holding
// everything ranks better than over the body alone; the title field adds
// weight on top.
func ChunkBody(title string, c *Chunk) string {
	body := c.Text
	if c.Heading != "" {
		body = c.Heading + "\n" + body
	}
	if title != "" {
		body = title + "\n" + body
	}
	return body
}
