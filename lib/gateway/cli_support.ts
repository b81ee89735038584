/**
 * Pieces the `poly servers | grants | ops` commands share: reading a token from stdin
 * or a variable, opening the store, and the expected revision of a write.
 *
 * @module
 */
import type { DatabaseSync } from "../store/mod.ts";
import { GatewayError } from "./errors.ts";
import { requireServer } from "./store.ts";

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

/** The revision a write should expect: the one given, else the server's current one (read now). */
export function expectedRevision(db: DatabaseSync, server: string, given: number | undefined): number {
  return given ?? requireServer(db, server).revision;
}

/** Pretty JSON with a final newline. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}
