/**
 * `result_path`: where in a verifier's result the expected value is read.
 *
 * The path is evaluated against the verifier's structured result: its
 * `structuredContent` when present, otherwise the JSON value of its first text block,
 * otherwise that text as a string. Syntax: an optional leading `$`, then `.name`,
 * `[index]` or `["name"]` steps; a bare leading name is allowed (`value`, `items[0].id`,
 * `$.items[0]["display name"]`). `$` alone is the whole document.
 *
 * @module
 */
import { GatewayError } from "./errors.ts";

/** One step of a path. */
export type PathStep = string | number;

/** Parses a path, or throws an `invalid_request` GatewayError. */
export function parseResultPath(path: string): PathStep[] {
  const steps: PathStep[] = [];
  let i = 0;
  const fail = (why: string) =>
    new GatewayError("invalid_request", `result_path "${path}" is not valid: ${why} at offset ${i}`);
  if (path[i] === "$") i++;
  else if (path.length > 0 && path[0] !== "[" && path[0] !== ".") path = `.${path}`;
  while (i < path.length) {
    if (path[i] === ".") {
      i++;
      const m = /^[A-Za-z0-9_$-]+/.exec(path.slice(i));
      if (!m) throw fail("expected a name after '.'");
      steps.push(/^\d+$/.test(m[0]) ? Number(m[0]) : m[0]);
      i += m[0].length;
    } else if (path[i] === "[") {
      const rest = path.slice(i);
      const index = /^\[(\d+)\]/.exec(rest);
      const quoted = /^\[\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*\]/.exec(rest);
      if (index) {
        steps.push(Number(index[1]));
        i += index[0].length;
      } else if (quoted) {
        const raw = quoted[1];
        steps.push(raw.startsWith('"') ? JSON.parse(raw) : raw.slice(1, -1).replace(/\\(.)/g, "$1"));
        i += quoted[0].length;
      } else {
        throw fail('expected [number] or ["name"]');
      }
    } else {
      throw fail("expected '.' or '['");
    }
  }
  return steps;
}

/** The value at `steps` in `doc`, or `{found: false}`. */
export function readPath(doc: unknown, steps: readonly PathStep[]): { found: true; value: unknown } | { found: false } {
  let here: unknown = doc;
  for (const step of steps) {
    if (typeof step === "number" && Array.isArray(here) && step < here.length) here = here[step];
    else if (here !== null && typeof here === "object" && !Array.isArray(here) && Object.hasOwn(here, String(step))) {
      here = (here as Record<string, unknown>)[String(step)];
    } else return { found: false };
  }
  return { found: true, value: here };
}

/** The document a verifier's result is read from (see the module doc). */
export function resultDocument(result: { structuredContent?: unknown; content?: unknown }): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const first = Array.isArray(result.content)
    ? result.content.find((c): c is { type: "text"; text: string } =>
      typeof c === "object" && c !== null && (c as { type?: unknown }).type === "text"
    )
    : undefined;
  if (!first) return undefined;
  try {
    return JSON.parse(first.text);
  } catch {
    return first.text;
  }
}
