/**
 * Turning an upstream's `tools/list` answer into a stored catalog.
 *
 * - Each tool gets a stable id: `tool-` + the first 16 hex of SHA-256 of its name.
 * - Each tool gets a fingerprint: SHA-256 (hex) of the canonical JSON of the whole tool
 *   definition exactly as the server sent it (name, title, description, input and output
 *   schemas, annotations, and anything else it carries), so any change is seen.
 * - Refused: more than {@link MAX_TOOLS} tools, two tools colliding on an id, a tool the
 *   SDK's schema rejects, and a catalog that echoes a credential poly presented.
 *
 * @module
 */
import { canonicalJson } from "./canonical.ts";
import { digestOf } from "../cache/digest.ts";
import { GatewayError } from "./errors.ts";
import { ToolSchema } from "./_sdk.ts";

/** The most tools one upstream catalog may hold. */
export const MAX_TOOLS = 128;

/** One tool of a stored catalog. */
export interface CatalogTool {
  /** `tool-` + 16 hex. */
  id: string;
  name: string;
  /** SHA-256 hex of the canonical definition. */
  fingerprint: string;
  /** The definition as the server sent it. */
  definition: Record<string, unknown>;
}

/** A stored catalog: its tools in the server's order, and a digest over all of them. */
export interface Catalog {
  tools: CatalogTool[];
  /** SHA-256 hex over the ordered (id, fingerprint) pairs: equal digests mean equal catalogs. */
  digest: string;
}

/** The stable id of a tool name. */
export function toolId(name: string): string {
  return `tool-${digestOf(name).slice(0, 16)}`;
}

/** The fingerprint of a tool definition as sent. */
export function toolFingerprint(definition: unknown): string {
  return digestOf(canonicalJson(definition));
}

/** Options for {@link buildCatalog}. */
export interface BuildCatalogOptions {
  /** Credentials poly presented to the server; a catalog containing any of them is refused. */
  secrets?: readonly string[];
  /** Overrides the id function (tests of the collision rule). */
  idOf?: (name: string) => string;
}

/** Validates raw tool definitions and builds the catalog, or throws a `catalog_refused` GatewayError. */
export function buildCatalog(server: string, raw: readonly unknown[], options: BuildCatalogOptions = {}): Catalog {
  if (raw.length > MAX_TOOLS) {
    throw refused(server, `it lists ${raw.length} tools, more than the limit of ${MAX_TOOLS}`);
  }
  const idOf = options.idOf ?? toolId;
  const byId = new Map<string, string>();
  const tools: CatalogTool[] = [];
  for (const [index, item] of raw.entries()) {
    const parsed = ToolSchema.safeParse(item);
    if (!parsed.success || typeof item !== "object" || item === null || Array.isArray(item)) {
      const detail = parsed.success ? "not an object" : parsed.error.issues.map((i) => i.message).join("; ");
      throw refused(server, `tool #${index + 1} is not a valid MCP tool definition (${detail})`);
    }
    const definition = item as Record<string, unknown>;
    const name = parsed.data.name;
    const id = idOf(name);
    const other = byId.get(id);
    if (other !== undefined) {
      throw refused(
        server,
        other === name
          ? `two tools are both named "${name}" (id "${id}")`
          : `tools "${other}" and "${name}" collide on id "${id}"`,
      );
    }
    byId.set(id, name);
    tools.push({ id, name, fingerprint: toolFingerprint(definition), definition });
  }
  const text = canonicalJson(raw);
  for (const secret of options.secrets ?? []) {
    if (secret && (text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1)))) {
      throw refused(server, "it echoes the credential poly presented to the server");
    }
  }
  return { tools, digest: catalogDigest(tools) };
}

/** Digest over the ordered (id, fingerprint) pairs of a catalog. */
export function catalogDigest(tools: readonly Pick<CatalogTool, "id" | "fingerprint">[]): string {
  return digestOf(canonicalJson(tools.map((t) => [t.id, t.fingerprint])));
}

function refused(server: string, detail: string): GatewayError {
  return new GatewayError("catalog_refused", `The catalog of server "${server}" was refused: ${detail}`);
}
