/**
 * Upstream servers and their grants as the Gateway pane shows them, read with
 * the gateway's own store functions (no discovery, no network).
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { catalogOf, listServerRecords } from "../../lib/gateway/store.ts";
import { grantStates } from "../../lib/gateway/grants.ts";
import { unresolvedOps } from "../../lib/gateway/ops.ts";
import type { GatewaySnapshot } from "./types.ts";

/** The gateway tables; the snapshot reads them only when all are present. */
export const GATEWAY_TABLES = ["gateway_servers", "gateway_tools", "gateway_grants", "gateway_ops"] as const;

/** Every server (removed ones too, marked), with its grants and their states. */
export function readGateway(db: DatabaseSync): GatewaySnapshot {
  const servers = listServerRecords(db, true).map((s) => ({
    name: s.name,
    transport: s.transport,
    endpoint: s.transport === "http" ? s.url ?? "" : (s.command ?? []).join(" "),
    auth: s.auth,
    ...(s.oauthStatus ? { oauthStatus: s.oauthStatus } : {}),
    enabled: s.enabled,
    revision: s.revision,
    tools: catalogOf(db, s.name).length,
    ...(s.catalogDigest ? { catalogDigest: s.catalogDigest } : {}),
    grants: grantStates(db, s.name),
    unresolvedOps: unresolvedOps(db, s.name).length,
    updatedAt: s.updatedAt,
  }));
  // Enabled servers first, each group by name.
  servers.sort((a, b) => Number(b.enabled) - Number(a.enabled) || a.name.localeCompare(b.name));
  return { servers };
}
