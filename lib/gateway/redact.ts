/**
 * Redacting an upstream's answers before anyone sees or stores them. An upstream
 * may echo what poly presented to it (a debugging tool that returns the request's
 * headers, an error that quotes them, a process that prints its environment): the
 * gateway passes every result, verifier answer and error of a server through
 * {@link redactor} with that server's sealed secrets, so they reach neither a
 * caller (`mcp_read` is read-level: a viewer over HTTP may call it) nor
 * `gateway_ops`.
 *
 * Each sealed secret is replaced wherever it occurs, as written, URL-encoded or
 * JSON-escaped, by `[REDACTED:sealed-secret]`; then the fleet's credential scrubber
 * (lib/fleet/scrub.ts) redacts what it recognises (provider keys, JWTs, bearer
 * headers, private keys). Values shorter than {@link MIN_SECRET_CHARS} are not
 * searched for: they would match ordinary text. An upstream that transforms a
 * secret on purpose (reverses, encrypts it) is not caught: that is what reviewing
 * a server before granting it is for.
 *
 * @module
 */
import { scrub } from "../fleet/scrub.ts";

/** What a sealed secret is replaced with. */
export const SEALED_LABEL = "[REDACTED:sealed-secret]";

/** Shortest sealed value searched for (as for a stdio upstream's environment: `DEBUG=1` is no secret). */
export const MIN_SECRET_CHARS = 8;

/** Keys of a sealed JSON value whose string values are secrets (OAuth tokens, client secret, PKCE verifier, state). */
const SECRET_KEY = /(token|secret|verifier|password|passwd|key|^state|^code)$/i;

/**
 * The strings to look for given one sealed plain value: the value itself; when
 * it is JSON, every value of a flat map of names to strings (a server's sealed
 * environment), and in any other document (the OAuth blob) every string under a
 * key that names a secret (tokens, client secret, verifier, state), so its
 * public parts (client id, URLs, token type) stay readable.
 */
export function secretValues(plaintext: string): string[] {
  const out = [plaintext];
  let parsed: unknown;
  try {
    parsed = JSON.parse(plaintext);
  } catch {
    return out;
  }
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
    const values = Object.values(parsed);
    if (values.length > 0 && values.every((v) => typeof v === "string")) return [...out, ...values as string[]];
  }
  const walk = (v: unknown, key: string | undefined, depth: number): void => {
    if (depth > 8) return;
    if (typeof v === "string") {
      if (key !== undefined && SECRET_KEY.test(key)) out.push(v);
    } else if (Array.isArray(v)) v.forEach((x) => walk(x, key, depth + 1));
    else if (v && typeof v === "object") { for (const [k, x] of Object.entries(v)) walk(x, k, depth + 1); }
  };
  walk(parsed, undefined, 0);
  return out;
}

/** Redacts one server's secrets (and what the fleet scrubber knows) from text, values and errors. */
export interface Redactor {
  /** The exact strings searched for (each secret as written, URL-encoded and JSON-escaped), longest first. */
  readonly needles: readonly string[];
  text(text: string): string;
  /** A deep copy of a JSON-like value with every string (and object key) redacted. */
  value<T>(value: T): T;
  /** Redacts an error's message, stack and data, and its causes', in place; returns it. */
  error<E>(error: E): E;
}

/** A {@link Redactor} for `secrets` (plain values; JSON ones are searched by {@link secretValues}). */
export function redactor(secrets: readonly string[]): Redactor {
  const forms = new Set<string>();
  for (const secret of secrets) {
    for (const value of secretValues(secret)) {
      if (value.length < MIN_SECRET_CHARS) continue;
      forms.add(value);
      forms.add(encodeURIComponent(value));
      forms.add(JSON.stringify(value).slice(1, -1));
    }
  }
  const needles = [...forms].filter((f) => f.length >= MIN_SECRET_CHARS).sort((a, b) => b.length - a.length);
  const text = (input: string): string => {
    let out = input;
    for (const needle of needles) if (out.includes(needle)) out = out.split(needle).join(SEALED_LABEL);
    return scrub(out);
  };
  const value = <T>(input: T, depth = 0): T => {
    if (typeof input === "string") return text(input) as T;
    if (depth > 64 || input === null || typeof input !== "object") return input;
    if (Array.isArray(input)) return input.map((x) => value(x, depth + 1)) as T;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(input)) out[text(k)] = value(v, depth + 1);
    return out as T;
  };
  const error = <E>(input: E): E => {
    let e: unknown = input;
    for (let depth = 0; depth < 8 && e instanceof Error; depth++) {
      e.message = text(e.message);
      if (e.stack) e.stack = text(e.stack);
      const data = (e as { data?: unknown }).data;
      if (data !== undefined) (e as { data?: unknown }).data = value(data);
      e = e.cause;
    }
    return input;
  };
  return { needles, text, value, error };
}
