/**
 * Cache: every repository's result cache — entries and bytes per namespace and
 * the hit rate of its latest runs. `c` cleans the selected namespace after a
 * confirmation; enter shows the repository's recent runs.
 *
 * @module
 */
import { cleanNamespace } from "../data/cache_clean.ts";
import type { NamespaceLine, RepoCache } from "../data/types.ts";
import { bytes, count, fit, percent, truncateStart } from "../format.ts";
import { BLANK, type Column, type Line, line, pairs, seg, table } from "../lines.ts";
import { isLayout, longTime, sectionData } from "./_common.ts";
import type { Layout, Pane, PaneProps } from "./types.ts";

interface Item {
  repo: RepoCache;
  ns?: NamespaceLine;
}

function items(repos: RepoCache[]): Item[] {
  return repos.flatMap((repo) => repo.error ? [{ repo }] : repo.namespaces.map((ns) => ({ repo, ns })));
}

function selected(p: PaneProps): Item | undefined {
  const repos = p.snapshot.cache.data?.repos ?? [];
  return items(repos)[p.cursor];
}

function hitRate(ns: NamespaceLine): string {
  return ns.runs === 0 ? "–" : percent(ns.hits, ns.hits + ns.misses);
}

function label(repo: RepoCache): string {
  return repo.current ? `${repo.label} (here)` : repo.label;
}

function layout(p: PaneProps): Layout {
  const got = sectionData(p.snapshot.cache, p.clock, () => [line("The caches have not been read yet.", "dim")]);
  if (isLayout(got)) return got;
  const { repos, roots } = got.data;
  const all = items(repos);
  const columns: Column[] = [
    { title: "REPOSITORY", width: 20, flex: true, cut: "start" },
    { title: "NAMESPACE", width: 9 },
    { title: "ENTRIES", width: 8, align: "right" },
    { title: "SIZE", width: 10, align: "right" },
    { title: "HIT RATE", width: 8, align: "right" },
    { title: "RUNS", width: 4, align: "right" },
  ];
  const t = table(
    columns,
    all.map((it, i) => {
      const first = i === 0 || all[i - 1].repo !== it.repo;
      const name = first ? seg(label(it.repo), it.repo.current ? "accent" : undefined) : "";
      if (!it.ns) return [name];
      const ns = it.ns;
      return [
        name,
        ns.namespace,
        count(ns.entries),
        bytes(ns.bytes),
        seg(hitRate(ns), ns.runs === 0 ? "dim" : undefined),
        String(ns.runs),
      ];
    }),
    p.width,
  );
  // A cache that cannot be read says why across the other columns.
  const first = t.widths[0];
  const rows = t.rows.map((l, i) =>
    all[i].ns ? l : [
      seg(fit(truncateStart(label(all[i].repo), first), first)),
      seg(" "),
      seg(`cannot read: ${all[i].repo.error}`, "bad"),
    ]
  );
  const entries = repos.reduce((a, r) => a + r.total.entries, 0);
  const size = repos.reduce((a, r) => a + r.fileBytes, 0);
  const summary = line(
    `${repos.length} ${repos.length === 1 ? "repository" : "repositories"} under ${roots.join(", ")} · ${
      count(entries)
    } entries · ${bytes(size)} on disk`,
  );
  return {
    head: [summary, ...got.stale, BLANK, t.header],
    rows,
    mode: "select",
    empty: [line("No result cache yet: poly lint and poly fmt create one per repository.", "dim")],
  };
}

function detail(p: PaneProps): Layout | undefined {
  const it = selected(p);
  if (!it) return undefined;
  const r = it.repo;
  const facts = pairs([
    [
      "repository",
      r.anchor ??
        "unknown: the folder is named by a digest of it, and no file the cache records leads there (poly fmt records none)",
    ],
    ["folder", r.dir],
    ["database", `${r.path} · ${bytes(r.fileBytes)}`],
    ...(r.error ? [["error", r.error] as [string, string]] : []),
  ]);
  const ns = table(
    [
      { title: "NAMESPACE", width: 10 },
      { title: "ENTRIES", width: 8, align: "right" },
      { title: "SIZE", width: 10, align: "right" },
      { title: "HITS", width: 8, align: "right" },
      { title: "MISSES", width: 8, align: "right" },
      { title: "HIT RATE", width: 8, align: "right" },
    ],
    r.namespaces.map((
      n,
    ) => [n.namespace, String(n.entries), bytes(n.bytes), String(n.hits), String(n.misses), hitRate(n)]),
    p.width,
  );
  const runs = table(
    [
      { title: "AT", width: 19 },
      { title: "NAMESPACE", width: 10 },
      { title: "HITS", width: 8, align: "right" },
      { title: "MISSES", width: 8, align: "right" },
      { title: "HIT RATE", width: 8, align: "right" },
    ],
    r.recentRuns.map((
      x,
    ) => [longTime(p.clock, x.at), x.namespace, String(x.hits), String(x.misses), percent(x.hits, x.hits + x.misses)]),
    p.width,
  );
  const rows: Line[] = [
    ...facts,
    BLANK,
    line("Namespaces (hits and misses over the latest runs)", "title", true),
    ns.header,
    ...ns.rows,
    BLANK,
    line("Recent runs, newest first", "title", true),
    ...(r.recentRuns.length ? [runs.header, ...runs.rows] : [line("no run recorded yet", "dim")]),
  ];
  return { head: [line(`Cache of ${label(r)}`, "title", true), BLANK], rows, mode: "scroll" };
}

/** The Cache pane. */
export const cachePane: Pane = {
  id: "cache",
  title: "Cache",
  layout,
  detail,
  keys: (p) => items(p.snapshot.cache.data?.repos ?? []).map((it) => `${it.repo.dir}\u0000${it.ns?.namespace ?? ""}`),
  actions: [{
    key: "c",
    hint: "clean",
    description: "clean the selected namespace (asks first)",
    prepare(p) {
      const it = selected(p);
      if (!it?.ns) return "Select a namespace of a readable cache to clean it.";
      const { repo, ns } = it;
      if (ns.entries === 0 && ns.runs === 0) {
        return `The "${ns.namespace}" namespace of ${repo.label} is already empty.`;
      }
      return {
        question: `Clean "${ns.namespace}" of ${repo.label} (${count(ns.entries)} entries, ${bytes(ns.bytes)})?`,
        run: () => {
          const r = cleanNamespace(repo.path, ns.namespace);
          return Promise.resolve(
            `Removed ${r.removed} entries (${bytes(r.bytes)}) from "${ns.namespace}" of ${repo.label}.`,
          );
        },
      };
    },
  }],
};
