/**
 * The `[gateway]` section of poly.toml.
 *
 * ```toml
 * [gateway]
 * timeout_ms = 60000            # time limit of one upstream request
 *
 * [gateway.profiles.default]    # the host connected to `poly mcp`
 * read = ["*"]
 * call = ["github/create_issue"]
 *
 * [gateway.profiles.reviewer]   # handed to a delegated worker
 * description = "Reads issues, writes nothing"
 * read = ["github/*"]
 * ```
 *
 * Profiles are a second layer over server grants: a profile can only narrow what the
 * grants allow. Targets are `*`, `server/*` or `server/tool` (tool name or id). When
 * no `default` profile is configured, the default profile may use every applying grant.
 *
 * @module
 */
import { z } from "zod";

/** A profile name. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** A target pattern: `*`, `server/*` or `server/tool`. */
export const TargetPattern = z.string().regex(
  /^(\*|[A-Za-z0-9][A-Za-z0-9_.-]{0,63}\/.+)$/,
  'expected "*", "server/*" or "server/tool"',
);

/** `[gateway.profiles.<name>]`. */
export const GatewayProfileSchema = z.strictObject({
  description: z.string().optional(),
  /** Targets this profile may call with mcp_read (read grants). */
  read: z.array(TargetPattern).default([]),
  /** Targets this profile may call with mcp_call (write grants). */
  call: z.array(TargetPattern).default([]),
});

/** `[gateway]`. */
export const GatewayConfigSchema = z.strictObject({
  /** Time limit of one upstream request, in milliseconds. */
  timeout_ms: z.number().int().min(100).max(600_000).optional(),
  profiles: z.record(z.string().regex(PROFILE_NAME, "profile names are letters, digits, _ - ."), GatewayProfileSchema)
    .default({}),
});

/** The validated `[gateway]` section. */
export type GatewayConfig = z.infer<typeof GatewayConfigSchema>;

/** One validated profile. */
export type GatewayProfile = z.infer<typeof GatewayProfileSchema>;
