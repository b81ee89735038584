/**
 * What identifies the running program to a `poly daemon`. Imports nothing: a
 * `poly lint` in a daemon's repository asks this before it loads anything else.
 *
 * @module
 */

/** What identifies the running program to a daemon: its executable when compiled, else its main module. */
export function programId(): string {
  return Deno.build.standalone ? Deno.execPath() : Deno.mainModule;
}
