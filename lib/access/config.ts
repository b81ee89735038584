/**
 * The `[serve]` section of poly.toml: what `poly mcp --http` needs beyond its
 * command line.
 *
 * ```toml
 * [serve]
 * # Tools that do not run when called over HTTP: the call becomes a proposed
 * # operation that someone with an approvals token (or the owner) approves.
 * require_approval = ["lint_fix", "format_write", "delegate", "mcp_call"]
 * # Browser origins allowed besides loopback ones (http://localhost:*, ...).
 * allowed_origins = ["https://poly.example.com"]
 * # Host header values allowed besides loopback names (behind a TLS proxy).
 * allowed_hosts = ["poly.example.com"]
 * ```
 *
 * The section is read from the configuration governing the server's root (or
 * `poly mcp --config PATH`) when the server starts; a `config` argument of a
 * tool call never changes it.
 *
 * @module
 */
import { z } from "zod";

/** An origin: scheme, host and optional port, nothing else. */
export const OriginEntry = z.string().regex(
  /^https?:\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/,
  'expected an origin such as "https://poly.example.com" (scheme, host, optional port; no path)',
);

/** A Host header value: a host name or address, optionally with a port. */
export const HostEntry = z.string().regex(
  /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/,
  'expected a host such as "poly.example.com" or "poly.example.com:8443"',
);

/** `[serve]`. */
export const ServeSection = z.strictObject({
  require_approval: z.array(z.string().regex(/^[a-z][a-z0-9_]*$/, "expected a tool name such as lint_fix"))
    .default([]),
  allowed_origins: z.array(OriginEntry).default([]),
  allowed_hosts: z.array(HostEntry).default([]),
});

/** The validated `[serve]` section. */
export type ServeSectionValue = z.infer<typeof ServeSection>;

/** The section's defaults (no section in poly.toml). */
export const SERVE_DEFAULTS: ServeSectionValue = { require_approval: [], allowed_origins: [], allowed_hosts: [] };

/** The `[serve]` section governing `root` (or the explicit config), with defaults. */
export async function loadServeSection(root: string, explicit?: string): Promise<ServeSectionValue> {
  const { openConfig } = await import("../config/mod.ts");
  const set = await openConfig({ cwd: root, explicit });
  const resolved = await set.forDir(root);
  const raw = (resolved.data as { serve?: unknown }).serve;
  return raw === undefined ? { ...SERVE_DEFAULTS } : ServeSection.parse(raw);
}
