/**
 * Gateway: the registered upstream MCP servers and, under each, its grants with
 * their state (active, stale after a catalog change, missing, or a write grant
 * without an active verifier). Enter shows a server in full.
 *
 * @module
 */
import type { GrantView } from "../../lib/gateway/grants.ts";
import type { ServerLine } from "../data/types.ts";
import { BLANK, type Line, line, pairs, seg, table } from "../lines.ts";
import type { Tone } from "../theme.ts";
import { isLayout, longTime, noStateLines, sectionData, shortTime } from "./_common.ts";
import type { Layout, Pane, PaneProps } from "./types.ts";

function grantTone(g: GrantView): Tone {
  return g.state === "active" ? "good" : "warn";
}

function auth(s: ServerLine): string {
  return s.oauthStatus ? `${s.auth} (${s.oauthStatus.replaceAll("_", " ")})` : s.auth;
}

function grantCounts(s: ServerLine): string {
  const active = s.grants.filter((g) => g.state === "active").length;
  const off = s.grants.length - active;
  return off ? `${active} active, ${off} off` : `${active} active`;
}

/** A server row, then a row per grant. */
interface Item {
  server: ServerLine;
  grant?: GrantView;
}

function items(servers: ServerLine[]): Item[] {
  return servers.flatMap((server) => [{ server }, ...server.grants.map((grant) => ({ server, grant }))]);
}

/** One line per grant of `s`, fitted to the pane less the tree prefix. */
function grantRows(s: ServerLine, p: PaneProps): Line[] {
  return table(
    [
      { title: "", width: 22 },
      { title: "", width: 5 },
      { title: "", width: 10 },
      { title: "", width: 11 },
      { title: "", width: 20, flex: true },
    ],
    s.grants.map((g) => [
      g.tool,
      g.mode,
      seg(g.state, grantTone(g)),
      seg(shortTime(p.clock, g.granted_at), "dim"),
      g.verifiers.length ? `verified by ${g.verifiers.join(", ")}` : "",
    ]),
    p.width - 4,
  ).rows;
}

function layout(p: PaneProps): Layout {
  const got = sectionData(p.snapshot.gateway, p.clock, () => noStateLines(p.snapshot, "Upstream servers"));
  if (isLayout(got)) return got;
  const servers = got.data.servers;
  const t = table(
    [
      { title: "SERVER", width: 18 },
      { title: "TRANSPORT", width: 9 },
      { title: "AUTH", width: 17 },
      { title: "TOOLS", width: 5, align: "right" },
      { title: "GRANTS", width: 15 },
      { title: "OPEN OPS", width: 8, align: "right" },
      { title: "ENDPOINT", width: 12, flex: true },
    ],
    servers.map((s) => [
      seg(s.enabled ? s.name : `${s.name} (removed)`, s.enabled ? "accent" : "dim", true),
      s.transport,
      auth(s),
      String(s.tools),
      grantCounts(s),
      seg(String(s.unresolvedOps), s.unresolvedOps ? "warn" : undefined),
      s.endpoint,
    ]),
    p.width,
  );
  const rows: Line[] = [];
  servers.forEach((s, i) => {
    rows.push(t.rows[i]);
    const g = grantRows(s, p);
    g.forEach((l, j) => rows.push([seg(j === g.length - 1 ? "  └ " : "  ├ ", "dim"), ...l]));
  });
  const grants = servers.reduce((a, s) => a + s.grants.length, 0);
  const active = servers.reduce((a, s) => a + s.grants.filter((g) => g.state === "active").length, 0);
  const ops = servers.reduce((a, s) => a + s.unresolvedOps, 0);
  return {
    head: [
      line(
        `${servers.length} upstream ${
          servers.length === 1 ? "server" : "servers"
        } · ${grants} grants (${active} active) · ${ops} unresolved ${ops === 1 ? "operation" : "operations"}`,
      ),
      ...got.stale,
      BLANK,
      t.header,
    ],
    rows,
    mode: "select",
    empty: [line("No upstream servers: register one with poly servers add.", "dim")],
  };
}

function detail(p: PaneProps): Layout | undefined {
  const servers = p.snapshot.gateway.data?.servers ?? [];
  const it = items(servers)[p.cursor];
  if (!it) return undefined;
  const s = it.server;
  const facts = pairs([
    ["endpoint", `${s.transport} ${s.endpoint}`],
    ["auth", auth(s)],
    ["state", s.enabled ? "enabled" : "removed"],
    ["revision", String(s.revision)],
    ["catalog", `${s.tools} tools${s.catalogDigest ? ` · digest ${s.catalogDigest.slice(0, 16)}` : ""}`],
    ["open operations", s.unresolvedOps ? `${s.unresolvedOps} (resolve with poly ops resolve)` : "none"],
    ["updated", longTime(p.clock, s.updatedAt)],
  ]);
  const t = table(
    [
      { title: "TOOL", width: 16, flex: true },
      { title: "MODE", width: 5 },
      { title: "STATE", width: 10 },
      { title: "FINGERPRINT", width: 12 },
      { title: "VERIFIERS", width: 16 },
      { title: "GRANTED", width: 11 },
    ],
    s.grants.map((g) => [
      g.tool,
      g.mode,
      seg(g.state, grantTone(g)),
      g.fingerprint.slice(0, 12),
      g.verifiers.map((v) => g.active_verifiers.includes(v) ? v : `${v} (inactive)`).join(", ") || "–",
      shortTime(p.clock, g.granted_at),
    ]),
    p.width,
  );
  const rows: Line[] = [
    ...facts,
    BLANK,
    line(`Grants (${s.grants.length})`, "title", true),
    ...(s.grants.length ? [t.header, ...t.rows] : [line("  no grants: no tool of this server is usable", "dim")]),
  ];
  return { head: [line(`Server ${s.name}`, "title", true), BLANK], rows, mode: "scroll" };
}

/** The Gateway pane. */
export const gatewayPane: Pane = {
  id: "gateway",
  title: "Gateway",
  layout,
  detail,
  keys: (p) =>
    items(p.snapshot.gateway.data?.servers ?? []).map((it) => `${it.server.name}\u0000${it.grant?.tool_id ?? ""}`),
};
