package siteconfig

import (
	"reflect"
	"strings"
	"testing"

	"tinyrag/app/embed"
	"tinyrag/app/knowledge/site"
)

const hash = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

func TestParse_ReadsBundlesLLMAndProxy(t *testing.T) {
	c, warns, err := Parse([]byte(`{"version":1,"bundles":[{"url":"kb/site.tinyrag","sha256":"` + hash + `"}],
		"llm":{"base_url":"http://127.0.0.1:11434/v1","model":"qwen3"},"proxy":"https://rag.example.test/"}`))
	if err != nil || len(warns) > 0 {
		t.Fatalf("err %v, warns %v", err, warns)
	}
	if len(c.Bundles) != 1 || c.LLM.BaseURL != "http://127.0.0.1:11434/v1" || c.LLM.Model != "qwen3" || c.Proxy != "https://rag.example.test" {
		t.Fatalf("config %+v", c)
	}
	srcs, err := c.Resolve("https://docs.example.test/kb/app/tinyrag.json")
	if err != nil || srcs[0] != (site.Source{URL: "https://docs.example.test/kb/app/kb/site.tinyrag", SHA256: hash}) {
		t.Fatalf("resolved %+v, %v", srcs, err)
	}
}

func TestParse_IgnoresKeysWithAWarning(t *testing.T) {
	cases := []string{
		`{"version":1,"llm":{"base_url":"https://api.example.test/v1","api_key":"sk-secret"}}`,
		`{"version":1,"llm":{"base_url":"https://api.example.test/v1","apiKey":"sk-secret"}}`,
		`{"version":1,"llm":{"base_url":"https://api.example.test/v1","token":"sk-secret"}}`,
		`{"version":1,"openai_api_key":"sk-secret"}`,
		`{"version":1,"llm":{"base_url":"https://user:sk-secret@api.example.test/v1"}}`,
	}
	for _, in := range cases {
		c, warns, err := Parse([]byte(in))
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if len(warns) == 0 || !strings.Contains(strings.Join(warns, " "), "ignored") {
			t.Errorf("%s: no warning (%v)", in, warns)
		}
		if strings.Contains(string(c.Marshal()), "sk-secret") {
			t.Errorf("%s: the key survived: %s", in, c.Marshal())
		}
	}
}

func TestParse_RefusesUnusableConfigs(t *testing.T) {
	cases := map[string]string{
		"not JSON":           `<!doctype html>`,
		"no version":         `{"bundles":[]}`,
		"newer version":      `{"version":2}`,
		"bad hash":           `{"version":1,"bundles":[{"url":"a.tinyrag","sha256":"abc"}]}`,
		"empty bundle URL":   `{"version":1,"bundles":[{"url":""}]}`,
		"javascript URL":     `{"version":1,"bundles":[{"url":"javascript:alert(1)"}]}`,
		"relative LLM URL":   `{"version":1,"llm":{"base_url":"/v1"}}`,
		"file proxy":         `{"version":1,"proxy":"file:///etc"}`,
		"bundles not a list": `{"version":1,"bundles":"a.tinyrag"}`,
	}
	for name, in := range cases {
		if _, _, err := Parse([]byte(in)); err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.Contains(err.Error(), FileName) {
			t.Errorf("%s: error %q does not name the file", name, err)
		}
	}
}

func TestParse_WarnsOfUnknownFields(t *testing.T) {
	_, warns, err := Parse([]byte(`{"version":1,"bundel":[]}`))
	if err != nil || len(warns) != 1 || !strings.Contains(warns[0], `"bundel"`) {
		t.Fatalf("warns %v, err %v", warns, err)
	}
}

func TestMarshal_RoundTrips(t *testing.T) {
	in := Config{Bundles: []site.Source{{URL: "a.tinyrag", SHA256: hash}}, LLM: &LLM{BaseURL: "http://127.0.0.1:1234/v1"}}
	out, warns, err := Parse(in.Marshal())
	if err != nil || len(warns) > 0 || out.Bundles[0] != in.Bundles[0] || out.LLM.BaseURL != in.LLM.BaseURL {
		t.Fatalf("round trip: %+v, %v, %v", out, warns, err)
	}
}

func TestParse_EmbedPolicyNormalizedOrRefused(t *testing.T) {
	c, warns, err := Parse([]byte(`{"version":1,"embed":{"origins":["https://Docs.Example.org/","http://127.0.0.1:9000"],"host_submit":true}}`))
	if err != nil || len(warns) > 0 {
		t.Fatalf("err %v, warns %v", err, warns)
	}
	p := c.EmbedPolicy()
	if !p.HostSubmit || !p.Allows("https://docs.example.org") || !p.Allows("http://127.0.0.1:9000") || p.Allows("http://127.0.0.1:9001") {
		t.Fatalf("policy %+v", p)
	}
	for _, bad := range []string{`"*"`, `"https://*.example.org"`, `"https://docs.example.org/embed"`, `"null"`} {
		_, _, err := Parse([]byte(`{"version":1,"embed":{"origins":[` + bad + `]}}`))
		if err == nil || !strings.Contains(err.Error(), FileName) || !strings.Contains(err.Error(), "not an origin") {
			t.Errorf("origin %s: err %v, want a refusal naming the file", bad, err)
		}
	}
	if none, _, _ := Parse([]byte(`{"version":1}`)); none.EmbedPolicy().Allows("https://docs.example.org") || none.EmbedPolicy().HostSubmit {
		t.Error("a config without embed allows embedding")
	}
}

func TestMarshal_KeepsTheEmbedPolicy(t *testing.T) {
	in := Config{Embed: &embed.Policy{Origins: []string{"https://docs.example.org"}, HostSubmit: true}}
	out, _, err := Parse(in.Marshal())
	if err != nil || !reflect.DeepEqual(out.Embed, in.Embed) {
		t.Fatalf("round trip: %+v, %v", out.Embed, err)
	}
}

func TestParse_StartersWithinTheirBounds(t *testing.T) {
	long := strings.Repeat("w", MaxStarterRunes+1)
	tests := []struct {
		name      string
		starters  string
		want      []string
		wantWarns int
	}{
		{"two questions", `["How do I prune?", "  Where do pears  keep? "]`, []string{"How do I prune?", "Where do pears keep?"}, 0},
		{"empty ones are dropped", `["", " ", "Why?"]`, []string{"Why?"}, 0},
		{"one too long is left out", `["` + long + `", "Why?"]`, []string{"Why?"}, 1},
		{"more than the limit: the first ones", `["1","2","3","4","5","6","7","8","9","10"]`, []string{"1", "2", "3", "4", "5", "6", "7", "8"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, warns, err := Parse([]byte(`{"version":1,"starters":` + tt.starters + `}`))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.Starters, tt.want) || len(warns) != tt.wantWarns {
				t.Errorf("starters %q, warnings %q; want %q and %d warnings", c.Starters, warns, tt.want, tt.wantWarns)
			}
		})
	}
	if _, err := CheckStarters([]string{"ok", long}); err == nil || !strings.Contains(err.Error(), "limit is 200") {
		t.Errorf("CheckStarters of a long starter: %v", err)
	}
	if got, err := CheckStarters([]string{" a  b ", ""}); err != nil || !reflect.DeepEqual(got, []string{"a b"}) {
		t.Errorf("CheckStarters = %q, %v", got, err)
	}
}
