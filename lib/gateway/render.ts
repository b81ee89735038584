/**
 * What the `poly servers`, `poly grants` and `poly ops` commands print for a person.
 * (`--format json` prints the documents themselves.)
 *
 * @module
 */
import type { DatabaseSync } from "../store/mod.ts";
import type { GrantView } from "./grants.ts";
import { grantStates } from "./grants.ts";
import type { OpRecord } from "./ops.ts";
import type { DiscoveryResult, ServerSummary } from "./servers.ts";
import { catalogOf, requireServer } from "./store.ts";
import { summarize } from "./servers.ts";
import { canonicalJson } from "./canonical.ts";

/** Renders rows as left-aligned columns. */
export function table(header: string[], rows: string[][]): string {
  if (rows.length === 0) return "";
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join("  ");
  return [line(header), ...rows.map(line)].join("\n") + "\n";
}

/** One server's detailed document (summary + catalog with grant states). */
export interface ServerDetail extends ServerSummary {
  /** Names of the variables a stdio upstream gets (`--env`; the values are sealed). */
  env?: string[];
  /** Host paths bound read-only into a stdio upstream's sandbox (`--bind-ro`). */
  bind_ro?: string[];
  tools_detail: {
    id: string;
    name: string;
    title?: string;
    fingerprint: string;
    grant?: { mode: "read" | "write"; state: GrantView["state"]; verifiers: string[] };
  }[];
}

/** Builds the document of `poly servers show`. */
export function serverDetail(db: DatabaseSync, name: string): ServerDetail {
  const server = requireServer(db, name);
  const grants = new Map(grantStates(db, name).map((g) => [g.tool_id, g]));
  return {
    ...summarize(db, server),
    ...(server.env ? { env: server.env.names } : {}),
    ...(server.bindRo ? { bind_ro: server.bindRo } : {}),
    tools_detail: catalogOf(db, name).map((t) => {
      const g = grants.get(t.id);
      const title = (t.definition as { title?: unknown }).title;
      return {
        id: t.id,
        name: t.name,
        ...(typeof title === "string" ? { title } : {}),
        fingerprint: t.fingerprint,
        ...(g ? { grant: { mode: g.mode, state: g.state, verifiers: g.verifiers } } : {}),
      };
    }),
  };
}

/** Human text for a server list. */
export function renderServers(servers: ServerSummary[]): string {
  if (servers.length === 0) return "No upstream servers registered: add one with poly servers add NAME --url URL\n";
  return table(
    ["NAME", "TRANSPORT", "AUTH", "STATUS", "REVISION", "TOOLS", "GRANTS", "UNRESOLVED", "ENDPOINT"],
    servers.map((s) => [
      s.name,
      s.transport,
      s.auth,
      s.enabled ? (s.oauth_status ?? "ready") : "removed",
      String(s.revision),
      String(s.tools),
      `${s.grants.active} active${s.grants.inactive ? `, ${s.grants.inactive} inactive` : ""}`,
      String(s.unresolved_operations),
      s.endpoint,
    ]),
  );
}

/** Human text for one server. */
export function renderServerDetail(d: ServerDetail): string {
  const head =
    `${d.name}: ${d.transport}, auth ${d.auth}${d.oauth_status ? ` (${d.oauth_status})` : ""}, revision ${d.revision}${
      d.enabled ? "" : ", removed"
    }\nendpoint: ${d.endpoint}\n` +
    (d.env ? `env (sealed): ${d.env.join(", ")}\n` : "") +
    (d.bind_ro ? `read-only binds: ${d.bind_ro.join(", ")}\n` : "");
  if (d.tools_detail.length === 0) return head + "No tools discovered.\n";
  return head + "\n" + table(
    ["TOOL", "ID", "FINGERPRINT", "GRANT"],
    d.tools_detail.map((t) => [
      t.name,
      t.id,
      t.fingerprint,
      t.grant
        ? `${t.grant.mode} (${t.grant.state})${
          t.grant.verifiers.length ? ` verified by ${t.grant.verifiers.join(", ")}` : ""
        }`
        : "-",
    ]),
  );
}

/** Human text for the result of add / refresh / consent. */
export function renderDiscovery(verb: string, r: DiscoveryResult): string {
  const s = r.server;
  const lines = [
    `${verb} "${s.name}" (${s.transport}, revision ${s.revision}${s.oauth_status ? `, ${s.oauth_status}` : ""}).`,
  ];
  if (verb === "Refreshed" && !r.changed) lines.push("The catalog is unchanged.");
  if (r.added.length) lines.push(`New tools: ${r.added.join(", ")}`);
  if (r.removed.length) lines.push(`Removed tools: ${r.removed.join(", ")}`);
  if (r.modified.length) {
    lines.push(`Changed tools (their grants no longer apply until reviewed again): ${r.modified.join(", ")}`);
  }
  if (s.oauth_status === "awaiting_consent") lines.push(`Consent is pending: run poly servers consent ${s.name}`);
  else if (verb === "Registered") {
    lines.push(
      `${s.tools} tools discovered. None is usable until granted: review them with poly servers show ${s.name}`,
    );
  }
  return lines.join("\n") + "\n";
}

/** Human text for grants. */
export function renderGrants(grants: GrantView[]): string {
  if (grants.length === 0) return "No grants.\n";
  return table(
    ["SERVER", "TOOL", "MODE", "STATE", "VERIFIERS", "WRITES", "FINGERPRINT"],
    grants.map((g) => [
      g.server,
      g.tool,
      g.mode,
      g.state,
      g.verifiers.join(",") || "-",
      g.mode === "read"
        ? "-"
        : g.preauthorization
        ? `preauthorized until ${g.preauthorization.until} by ${g.preauthorization.by}${
          g.preauthorization.where.length
            ? ` where ${g.preauthorization.where.map((c) => `${c.path}=${JSON.stringify(c.equals)}`).join(" ")}`
            : ""
        }`
        : "proposed",
      g.fingerprint,
    ]),
  );
}

/** Human text for operations. */
export function renderOps(ops: OpRecord[], all: boolean): string {
  if (ops.length === 0) return all ? "No operations recorded.\n" : "No unresolved MCP mutations.\n";
  return table(
    ["ID", "SERVER", "KIND", "TOOL", "STATUS", "CREATED", "DETAIL"],
    ops.map((o) => [
      o.id,
      o.server,
      o.kind,
      o.tool,
      o.status === "resolved" ? `resolved (${o.resolution})` : o.status,
      o.created_at,
      (o.detail ?? "").split("\n")[0].slice(0, 80),
    ]),
  );
}

/** Human text for one operation. */
export function renderOp(o: OpRecord): string {
  const lines = [
    `${o.id}: ${o.kind} ${o.server}/${o.tool}, ${o.status}${o.resolution ? ` (${o.resolution})` : ""}`,
    `profile: ${o.profile}; created ${o.created_at}; schema_sha256 ${o.fingerprint}`,
    `arguments: ${canonicalJson(o.arguments)}`,
  ];
  if (o.verification) {
    lines.push(
      `verification: ${o.verification.tool} ${
        canonicalJson(o.verification.arguments ?? {})
      } at ${o.verification.result_path}, expected ${canonicalJson(o.verification.expected ?? null)}`,
    );
  }
  if (o.authorization?.kind === "approved") {
    lines.push(`authorization: approved proposal ${o.authorization.proposal} by ${o.authorization.by}`);
  } else if (o.authorization) {
    lines.push(`authorization: pre-authorized by ${o.authorization.by} until ${o.authorization.until}`);
  }
  if (o.observed !== undefined) lines.push(`observed: ${canonicalJson(o.observed)}`);
  if (o.detail) lines.push(`detail: ${o.detail}`);
  if (o.resolution_note) lines.push(`note: ${o.resolution_note}`);
  return lines.join("\n") + "\n";
}
