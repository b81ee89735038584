/**
 * The MCP gateway: upstream MCP servers whose tools are usable only through reviewed,
 * fingerprint-pinned grants.
 *
 * - Register: {@link addServer} (discovery first; bearer tokens and OAuth state sealed).
 * - Catalog: stable tool ids, fingerprints over whole definitions, revisions,
 *   {@link refreshServer}; every write names the expected revision.
 * - Grants: {@link setGrant} (current fingerprint; writes need read verifiers).
 * - Profiles: {@link resolveProfile}, {@link toolsForProfile}.
 * - Run time: {@link describeTarget}, {@link readTool} (receipt), {@link callTool}
 *   (verified write; `unknown` blocks further writes until {@link resolveOp} / {@link verifyOp}).
 *
 * @example Hand a delegated worker a profile (fleet)
 * ```ts
 * const session = await openGatewaySession({ dir: workspace, profile: "reviewer" });
 * const tools = toolsForProfile(session.db, session.profile); // list them in the worker's prompt
 * const env = { [PROFILE_ENV]: session.profile.name };          // env of the worker's `poly mcp`
 * ```
 *
 * @module
 */
import { openStore, storePath } from "../store/mod.ts";
import type { DatabaseSync } from "../store/mod.ts";
import type { GatewayConfig } from "./config.ts";
import { DEFAULT_CALL_TIMEOUT_MS, type DispatchContext } from "./dispatch.ts";
import { currentProfileName, loadGatewayConfig, type ResolvedProfile, resolveProfile } from "./profiles.ts";

export { type GatewayConfig, GatewayConfigSchema, type GatewayProfile, GatewayProfileSchema } from "./config.ts";
export { GatewayError, type GatewayErrorCode, isGatewayError, OUTCOME_UNCERTAIN, SCHEMA_CHANGED } from "./errors.ts";
export { buildCatalog, type Catalog, type CatalogTool, MAX_TOOLS, toolFingerprint, toolId } from "./catalog.ts";
export { canonicalJson } from "./canonical.ts";
export { checkEndpoint, checkServerName, splitCommand } from "./url.ts";
export { keyPath, seal, unseal } from "./seal.ts";
export type { AuthKind, GrantRecord, OAuthConfig, OAuthStatus, ServerRecord, ToolRecord, Transport } from "./store.ts";
export { catalogOf, findServer, requireServer } from "./store.ts";
export {
  addServer,
  type AddServerInput,
  consentServer,
  type DiscoveryResult,
  listServers,
  refreshServer,
  removeServer,
  type ServerSummary,
  summarize,
} from "./servers.ts";
export {
  findTool,
  type GrantState,
  grantStates,
  type GrantView,
  type GrantWriteResult,
  revokeGrant,
  setGrant,
  type SetGrantInput,
} from "./grants.ts";
export {
  currentProfileName,
  DEFAULT_PROFILE,
  loadGatewayConfig,
  PROFILE_ENV,
  type ProfileTool,
  type ResolvedProfile,
  resolveProfile,
  toolsForProfile,
} from "./profiles.ts";
export { describeTarget, parseTarget, type ToolDescription } from "./targets.ts";
export {
  type CallOutcome,
  type CallRequest,
  callTool,
  checkCall,
  type CheckedCall,
  type DispatchContext,
  type ReadOutcome,
  type ReadRequest,
  readTool,
  type Receipt,
  type UpstreamResult,
  type VerificationOutcome,
  verifyOp,
} from "./dispatch.ts";
export { getOp, listOps, type OpRecord, type OpStatus, resolveOp, unresolvedOps, type Verification } from "./ops.ts";
export { SANDBOX_PROGRAM } from "./sandbox.ts";
export {
  type ArgumentConstraint,
  type Authorization,
  clearPreauthorization,
  coveredBy,
  parseConstraint,
  type Preauthorization,
  preauthorizationOf,
  setPreauthorization,
  type SetPreauthorizationInput,
} from "./preauth.ts";

const stores = new Map<string, DatabaseSync>();

/** The state database of this process (opened once per path, migrations applied). */
export function gatewayStore(path: string = storePath()): DatabaseSync {
  let db = stores.get(path);
  if (!db) {
    db = openStore({ path });
    stores.set(path, db);
  }
  return db;
}

/** Everything a gateway call needs: the store, the `[gateway]` section, the caller's profile. */
export interface GatewaySession {
  db: DatabaseSync;
  config?: GatewayConfig;
  profile: ResolvedProfile;
  /** Time limit of one upstream request. */
  timeoutMs: number;
}

/** Options for {@link openGatewaySession}. */
export interface GatewaySessionOptions {
  /** Directory whose poly.toml governs (the workspace root, or the CLI's cwd). */
  dir: string;
  /** `--config PATH`. */
  config?: string;
  /** Profile name; defaults to `$POLY_GATEWAY_PROFILE`, else `default`. */
  profile?: string;
  /** Database to use (tests); defaults to the state database. */
  db?: DatabaseSync;
}

/** Opens a session: store, config, profile. */
export async function openGatewaySession(options: GatewaySessionOptions): Promise<GatewaySession> {
  const config = await loadGatewayConfig(options.dir, options.config);
  const profile = resolveProfile(config, options.profile ?? currentProfileName());
  return {
    db: options.db ?? gatewayStore(),
    config,
    profile,
    timeoutMs: config?.timeout_ms ?? DEFAULT_CALL_TIMEOUT_MS,
  };
}

/** A dispatch context for a session (with an optional per-call timeout and abort signal). */
export function dispatchContext(session: GatewaySession, timeoutMs?: number, signal?: AbortSignal): DispatchContext {
  return { db: session.db, profile: session.profile, timeoutMs: timeoutMs ?? session.timeoutMs, signal };
}
