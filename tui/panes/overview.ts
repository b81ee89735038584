/**
 * Overview: which poly this is (version, build, channel, executable), its
 * engines (tier and upstream version), the host tools found or missing, and
 * where the cache and the state live.
 *
 * @module
 */
import { bytes, count } from "../format.ts";
import { BLANK, type Line, line, pairs, seg, table } from "../lines.ts";
import type { Layout, Pane, PaneProps } from "./types.ts";

function identityLines(p: PaneProps): Line[] {
  const o = p.snapshot.overview;
  const caches = p.snapshot.cache.data;
  const cacheFacts = caches
    ? ` · ${caches.repos.length} ${caches.repos.length === 1 ? "repository" : "repositories"} · ${
      count(caches.repos.reduce((a, r) => a + r.total.entries, 0))
    } entries · ${bytes(caches.repos.reduce((a, r) => a + r.fileBytes, 0))}`
    : "";
  return [
    [seg(`poly ${o.version}`, "title", true), seg(` · build ${o.buildId} · channel ${o.channel}`)],
    ...pairs([
      ["executable", `${o.executable} (pid ${o.pid})`],
      ["state", `${o.statePath}${o.stateBytes === undefined ? " (not created yet)" : ` · ${bytes(o.stateBytes)}`}`],
      ["cache", `${o.cacheHome}${cacheFacts}`],
    ]),
  ];
}

function engineLines(p: PaneProps, width: number): Line[] {
  const engines = p.snapshot.overview.engines;
  const t = table(
    [
      { title: "ENGINE", width: 15 },
      { title: "TIER", width: 14 },
      { title: "VERSION", width: 24, flex: true },
      { title: "LANGUAGES", width: 16 },
    ],
    engines.map((e) => [
      e.defaultEnabled ? e.id : `${e.id} (opt-in)`,
      seg(e.tier, e.tier === "host" ? "warn" : "accent"),
      e.upstream,
      e.languages.join(", "),
    ]),
    width,
  );
  return [line(`Engines (${engines.length})`, "title", true), t.header, ...t.rows];
}

function hostLines(p: PaneProps, width: number): Line[] {
  const tools = p.snapshot.overview.hostTools;
  if (!tools) return [line("Host tools", "title", true), line("looking up host tools…", "dim")];
  const found = tools.filter((t) => t.found).length;
  const t = table(
    [
      { title: "PROGRAM", width: 13 },
      { title: "STATUS", width: 7 },
      { title: "VERSION", width: 12 },
      { title: "PATH", width: 16, flex: true, cut: "start" },
      { title: "USED BY", width: 18 },
    ],
    tools.map((h) => [
      h.name,
      h.found ? seg("found", "good") : seg("missing", "warn"),
      h.version ?? (h.found ? "?" : ""),
      h.path ?? "",
      h.used_by.join(", "),
    ]),
    width,
  );
  return [
    line(`Host tools (${tools.length}: ${found} found, ${tools.length - found} missing)`, "title", true),
    t.header,
    ...t.rows,
  ];
}

/** The Overview pane. */
export const overviewPane: Pane = {
  id: "overview",
  title: "Overview",
  layout(p: PaneProps): Layout {
    return {
      head: [],
      rows: [...identityLines(p), BLANK, ...engineLines(p, p.width), BLANK, ...hostLines(p, p.width)],
      mode: "scroll",
    };
  },
};
