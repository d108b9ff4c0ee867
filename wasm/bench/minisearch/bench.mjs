// MiniSearch 7.2 (defaults) on a BEIR collection, in Node: the JavaScript
// reference the knowledge base's wasm benchmark is compared with, measured
// on the same machine in the same run (make bench-wasm).
import fs from "node:fs";
import path from "node:path";
import MiniSearch from "minisearch";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node bench.mjs BEIR_DIR");
  process.exit(2);
}
const lines = (f) => fs.readFileSync(path.join(dir, f), "utf8").split("\n").filter((l) => l.trim());
const corpus = lines("corpus.jsonl").map((l) => JSON.parse(l));
const queries = lines("queries-test.jsonl").map((l) => JSON.parse(l));
const qrels = new Map();
for (const l of lines("qrels-test.tsv").slice(1)) {
  const [q, d, s] = l.split("\t");
  if (+s > 0) (qrels.get(q) || qrels.set(q, new Set()).get(q)).add(d);
}

const build = (docs) => {
  const ms = new MiniSearch({ idField: "_id", fields: ["title", "text"] });
  ms.addAll(docs);
  return ms;
};
build(corpus.slice(0, 500)); // warm V8's optimising tier, as the wasm bench does
const t0 = performance.now();
const ms = build(corpus);
const indexMs = performance.now() - t0;

const times = [];
let ndcg = 0, n = 0;
for (const q of queries) {
  const rel = qrels.get(q._id);
  if (!rel) continue;
  const s = performance.now();
  const hits = ms.search(q.text).slice(0, 10);
  times.push(performance.now() - s);
  let dcg = 0, idcg = 0;
  hits.forEach((h, i) => { if (rel.has(h.id)) dcg += 1 / Math.log2(i + 2); });
  for (let i = 0; i < Math.min(rel.size, 10); i++) idcg += 1 / Math.log2(i + 2);
  ndcg += dcg / idcg;
  n++;
}
times.sort((a, b) => a - b);
const pct = (p) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)];
console.log(
  `minisearch index_docs_per_s=${Math.round(corpus.length / (indexMs / 1000))} ` +
  `query_ms_p50=${pct(0.5).toFixed(2)} query_ms_p95=${pct(0.95).toFixed(2)} ndcg10=${(ndcg / n).toFixed(4)}`,
);
