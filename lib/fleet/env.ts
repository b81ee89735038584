/**
 * Reading environment variables under Deno's permission model: poly may read only
 * the variables `deno.json` names, so every read goes through a reader that turns
 * a refused read into "unset" instead of a crash. Tests pass their own reader.
 *
 * @module
 */

/** Returns a variable's value, or undefined when unset, empty or not readable. */
export type EnvReader = (name: string) => string | undefined;

/** The process environment, read safely. */
export const processEnv: EnvReader = (name) => {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
};

/** A reader over a plain record (tests, or a layered environment). */
export function envFrom(values: Record<string, string | undefined>, fallback?: EnvReader): EnvReader {
  return (name) => {
    if (Object.hasOwn(values, name)) return values[name] || undefined;
    return fallback?.(name);
  };
}

/** Parses an on/off switch: 1/true/yes/on → true, 0/false/no/off → false, anything else undefined. */
export function parseSwitch(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off", ""].includes(v)) return false;
  return undefined;
}

/** Parses a positive integer, or undefined. */
export function parsePositiveInt(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** Splits a `:`-separated path list, dropping empty entries. */
export function splitPathList(value: string | undefined): string[] {
  return (value ?? "").split(":").map((p) => p.trim()).filter(Boolean);
}
