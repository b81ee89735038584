/**
 * Token secrets: how they are made, hashed and recognised, and how `--expires`
 * durations are read. A token is `poly_` + its public id + `_` + 32 random bytes
 * (base64url); only the SHA-256 of the whole string is stored, so a database
 * leak does not leak usable tokens.
 *
 * @module
 */
import { digestOf } from "../cache/digest.ts";
import { AccessError } from "./errors.ts";

/** A fresh public token id: `tok_` and 12 hex digits. */
export function newTokenId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `tok_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

function base64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** A fresh secret for token `id`. */
export function newSecret(id: string): string {
  return `poly_${id}_${base64url(crypto.getRandomValues(new Uint8Array(32)))}`;
}

/** The SHA-256 (hex) a token is stored as. */
export function hashToken(token: string): string {
  return digestOf(token);
}

/** Whether `text` has the shape of a poly token (cheap rejection before any lookup). */
export function looksLikeToken(text: string): boolean {
  return /^poly_tok_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/.test(text);
}

const UNITS: Record<string, number> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/**
 * Reads a duration such as `30d`, `12h`, `90m` or `2w` (milliseconds), or
 * `never` (undefined).
 */
export function parseDuration(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (t === "never") return undefined;
  const m = /^(\d+)\s*([mhdw])$/.exec(t);
  if (!m || Number(m[1]) <= 0) {
    throw new AccessError(
      "invalid",
      `Invalid duration "${text}": use a number and a unit m, h, d or w (e.g. 30d), or never`,
    );
  }
  const ms = Number(m[1]) * UNITS[m[2]];
  if (!Number.isSafeInteger(ms) || ms > 10 * 365 * 86_400_000) {
    throw new AccessError("invalid", `Invalid duration "${text}": at most ten years`);
  }
  return ms;
}
