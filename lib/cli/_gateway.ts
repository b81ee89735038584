/**
 * Pieces the `poly servers | grants | ops` commands share: reading a token from stdin
 * or a variable, opening the store, and the expected revision of a write.
 *
 * @module
 */
import type { DatabaseSync } from "../store/mod.ts";
import { GatewayError } from "../gateway/errors.ts";
import { requireServer } from "../gateway/store.ts";

/** Reads a token from all of stdin (a trailing newline is dropped). */
export async function tokenFromStdin(stdin: ReadableStream<Uint8Array> = Deno.stdin.readable): Promise<string> {
  const text = (await new Response(stdin).text()).replace(/\r?\n$/, "");
  if (!text.trim()) {
    throw new GatewayError(
      "token",
      "No token on stdin: pipe it in, e.g. poly servers add NAME --url URL --token-stdin < token.txt",
    );
  }
  return text.trim();
}

/**
 * Reads a token from an environment variable. poly may read only the variables its
 * permissions name (`POLY_*` and a few others); any other name is refused with a hint.
 */
export function tokenFromEnv(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new GatewayError("token", `"${name}" is not an environment variable name`);
  }
  let value: string | undefined;
  try {
    value = Deno.env.get(name);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      throw new GatewayError(
        "token",
        `Variable "${name}" is not readable by poly, which may read only POLY_* variables (and a few named ones): export the token as POLY_${
          name.toUpperCase().replace(/^POLY_/, "")
        } and pass --token-env POLY_${name.toUpperCase().replace(/^POLY_/, "")}, or pipe it with --token-stdin`,
        { cause: error },
      );
    }
    throw error;
  }
  if (!value?.trim()) throw new GatewayError("token", `Variable "${name}" is not set or empty`);
  return value.trim();
}

/**
 * The variables `--env` gives a stdio upstream, read from poly's environment now (at registration):
 * `NAME` passes poly's NAME, `NAME=FROM` passes poly's FROM under the name NAME. poly may read only
 * the variables its permissions name (`POLY_*` and a few others); for any other the error says to
 * export the value as `POLY_<NAME>` and pass `--env NAME=POLY_<NAME>`.
 */
export function envFromPoly(specs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const spec of specs) {
    const eq = spec.indexOf("=");
    const name = eq < 0 ? spec : spec.slice(0, eq);
    const from = eq < 0 ? spec : spec.slice(eq + 1);
    for (const n of [name, from]) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) {
        throw new GatewayError(
          "invalid_request",
          `--env "${spec}": "${n}" is not an environment variable name (give NAME, or NAME=VARIABLE to read)`,
        );
      }
    }
    if (name in out) throw new GatewayError("invalid_request", `--env ${name} is given twice`);
    let value: string | undefined;
    try {
      value = Deno.env.get(from);
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
        const own = `POLY_${name.toUpperCase().replace(/^POLY_/, "")}`;
        throw new GatewayError(
          "invalid_request",
          `Variable "${from}" is not readable by poly, which may read only POLY_* variables (and a few named ones): ` +
            `export the value as ${own} and pass --env ${name}=${own}`,
          { cause: error },
        );
      }
      throw error;
    }
    if (!value) throw new GatewayError("invalid_request", `--env ${spec}: variable "${from}" is not set or empty`);
    out[name] = value;
  }
  return out;
}

/** The revision a write should expect: the one given, else the server's current one (read now). */
export function expectedRevision(db: DatabaseSync, server: string, given: number | undefined): number {
  return given ?? requireServer(db, server).revision;
}

/** Which revision a write was checked against, for its output (seed 002: every write names one). */
export interface CheckedAgainst {
  revision: number;
  /** True when the caller gave `--expected-revision`; false when poly read it as the command started. */
  given: boolean;
}

/** {@link CheckedAgainst} for a write, and the line a person reads when no revision was given. */
export function checkedAgainst(revision: number, given: number | undefined): { doc: CheckedAgainst; line: string } {
  return {
    doc: { revision, given: given !== undefined },
    line: given !== undefined ? "" : `Checked against revision ${revision}, read when the command started ` +
      `(no --expected-revision given; pass --expected-revision ${revision} to pin it).\n`,
  };
}
