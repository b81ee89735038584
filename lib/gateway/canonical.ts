/**
 * Canonical JSON and the hashes built on it. Canonical form: object keys sorted by
 * UTF-16 code units, no insignificant whitespace, `undefined` members dropped, numbers
 * in ECMAScript's shortest round-trip form (as RFC 8785, JCS). Two documents that are
 * equal as JSON values have the same canonical text, so a hash over it changes exactly
 * when the value changes.
 *
 * @module
 */

/**
 * Renders `value` as canonical JSON (RFC 8785): what the gateway hashes and compares
 * tool definitions, call arguments and results by. Throws on values JSON cannot carry
 * (non-finite numbers, functions, cycles). Configuration is hashed by `fingerprintJson`
 * (lib/config/fingerprint.ts) instead, which takes TOML's dates and non-finite numbers.
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set());
}

function write(value: unknown, seen: Set<object>): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`Cannot encode ${value} as canonical JSON`);
      return JSON.stringify(value);
    case "object": {
      if (seen.has(value)) throw new TypeError("Cannot encode a cyclic value as canonical JSON");
      seen.add(value);
      let text: string;
      if (Array.isArray(value)) {
        text = `[${value.map((item) => (item === undefined ? "null" : write(item, seen))).join(",")}]`;
      } else {
        const entries = Object.entries(value as Record<string, unknown>)
          .filter(([, v]) => v !== undefined)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        text = `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${write(v, seen)}`).join(",")}}`;
      }
      seen.delete(value);
      return text;
    }
    default:
      throw new TypeError(`Cannot encode a ${typeof value} as canonical JSON`);
  }
}

/** Whether two JSON values are equal (by their canonical text). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
