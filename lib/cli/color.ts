/**
 * Whether poly colours what it prints: `--color auto|always|never`, then the
 * environment (`FORCE_COLOR`, `NO_COLOR`), then whether the stream is a terminal.
 *
 * @module
 */

/** The values of `--color`. */
export const COLOR_MODES = ["auto", "always", "never"] as const;

/** One value of `--color`. */
export type ColorMode = typeof COLOR_MODES[number];

/** The two variables colour depends on, each read by its literal name (tests/cli/_env_scan.ts checks them). */
function env(name: "FORCE_COLOR" | "NO_COLOR"): string | undefined {
  try {
    return name === "FORCE_COLOR" ? Deno.env.get("FORCE_COLOR") : Deno.env.get("NO_COLOR");
  } catch {
    return undefined;
  }
}

/**
 * Colour on or off. `always` and `never` decide alone. `auto` (the default): a
 * non-empty `FORCE_COLOR` turns colour on even into a pipe (`FORCE_COLOR=0` turns it
 * off), else a non-empty `NO_COLOR` turns it off, else colour is on for a terminal.
 *
 * @example
 * ```ts
 * colorMode("auto", Deno.stdout.isTerminal());
 * ```
 */
export function colorMode(
  mode: ColorMode,
  isTerminal: boolean,
  get: (name: "FORCE_COLOR" | "NO_COLOR") => string | undefined = env,
): boolean {
  if (mode !== "auto") return mode === "always";
  const force = get("FORCE_COLOR") ?? "";
  if (force !== "") return force !== "0" && force !== "false";
  if ((get("NO_COLOR") ?? "") !== "") return false;
  return isTerminal;
}
