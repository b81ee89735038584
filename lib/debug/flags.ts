/**
 * `POLY_DEBUG`: a comma-separated list of what to say on stderr (`timing`,
 * `launch`). A leaf module.
 *
 * @module
 */

/** Whether `POLY_DEBUG` names `name` (any case); false where the variable cannot be read. */
export function debugging(name: string): boolean {
  try {
    return (Deno.env.get("POLY_DEBUG") ?? "").split(",").some((v) => v.trim().toLowerCase() === name);
  } catch {
    return false;
  }
}
