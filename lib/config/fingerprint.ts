/**
 * Config fingerprints: `1/` + the first 16 hex digits of SHA-256 over the
 * canonical JSON (sorted keys, no whitespace) of an effective configuration.
 * Identical effective configs give identical fingerprints wherever the
 * repository lives: paths inside are made relative to the config's directory.
 *
 * @module
 */
import { digestOf } from "../cache/digest.ts";

/** The fingerprint format version; bump it when what is hashed changes. */
export const FINGERPRINT_VERSION = 1;

/**
 * The text a configuration value is hashed by (its fingerprint, the settings part of
 * cache keys): JSON with object keys sorted at every level and no insignificant
 * whitespace. For JSON values it is the gateway's `canonicalJson` text; unlike that
 * one (RFC 8785, which refuses what JSON cannot carry) it never throws on what a TOML
 * table holds: `inf` and `nan` hash as `null`, a date as its text.
 */
export function fingerprintJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  // A TOML date (smol-toml's TomlDate is a Date): its text, as JSON.stringify writes it (no own keys to sort).
  if (value instanceof Date) return value.toJSON();
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** `1/<16 hex>` for any JSON-like value. */
export function fingerprint(value: unknown): string {
  const digest = digestOf(fingerprintJson(value));
  return `${FINGERPRINT_VERSION}/${digest.slice(0, 16)}`;
}
