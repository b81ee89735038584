/**
 * Small, forgiving JSON readers for engine output: a single object (claude,
 * grok, cursor-agent) or JSON lines mixed with log noise (codex, opencode).
 *
 * @module
 */

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** `value` as an object, or undefined. */
export function obj(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value as JsonObject : undefined;
}

/** A string field, or undefined. */
export function str(o: JsonObject | undefined, key: string): string | undefined {
  const v = o?.[key];
  return typeof v === "string" ? v : undefined;
}

/** Every JSON object in `raw`: the whole text as one object, else one per line (non-JSON lines skipped). */
export function jsonObjects(raw: string): JsonObject[] {
  const trimmed = raw.trim();
  if (!trimmed) return [];
  if (trimmed.startsWith("{") && trimmed.endsWith("}")) {
    try {
      const whole = obj(JSON.parse(trimmed));
      if (whole) return [whole];
    } catch {
      // JSON lines, or noise around one object.
    }
  }
  const out: JsonObject[] = [];
  for (const line of raw.split(/\r?\n/)) {
    const t = line.trim();
    if (!t.startsWith("{")) continue;
    try {
      const v = obj(JSON.parse(t));
      if (v) out.push(v);
    } catch {
      // a log line that merely starts with "{"
    }
  }
  return out;
}

/** The strings of an array field. */
export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** Lower-cases and straightens curly apostrophes, for matching engine messages. */
export function normalize(text: string): string {
  return text.replace(/[\u2018\u2019]/g, "'").toLowerCase();
}

/**
 * Every `http_status` visible in `objects`: top-level fields, and JSON nested as
 * text inside any string (grok reports `{"message": ..., "http_status": 402}`
 * serialised inside `errors[0]`).
 */
export function httpStatuses(objects: JsonObject[]): number[] {
  const out: number[] = [];
  const texts: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 6) return;
    if (typeof v === "string") texts.push(v);
    else if (Array.isArray(v)) v.forEach((x) => walk(x, depth + 1));
    else if (obj(v)) {
      const o = v as JsonObject;
      for (const key of ["http_status", "api_error_status", "statusCode", "status_code"]) {
        if (typeof o[key] === "number") out.push(o[key] as number);
      }
      Object.values(o).forEach((x) => walk(x, depth + 1));
    }
  };
  objects.forEach((o) => walk(o, 0));
  for (const t of texts) {
    const start = t.indexOf("{");
    const end = t.lastIndexOf("}");
    if (start === -1 || end <= start) continue;
    try {
      const nested = obj(JSON.parse(t.slice(start, end + 1)));
      if (nested) walk(nested, 0);
    } catch {
      // not JSON
    }
  }
  return out;
}
