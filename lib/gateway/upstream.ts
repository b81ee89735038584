/**
 * Opening a registered server: unseal its credentials, connect, and know which
 * secrets it holds (a catalog must never echo them, and every answer is redacted
 * of them: lib/gateway/redact.ts).
 *
 * @module
 */
import type { DatabaseSync } from "../store/mod.ts";
import { UnauthorizedError } from "./_sdk.ts";
import { connectUpstream, type Upstream } from "./connect.ts";
import { GatewayError } from "./errors.ts";
import { openOAuthProvider, type StoredOAuthProvider } from "./oauth.ts";
import { MIN_SECRET_CHARS, redactor, secretValues } from "./redact.ts";
import { keyHomeOf, openedFor, unseal } from "./seal.ts";
import { findServer, type ServerRecord } from "./store.ts";

/** Purpose a bearer token is sealed for. */
export function bearerPurpose(name: string): string {
  return `bearer:${name}`;
}

/** Purpose a stdio upstream's environment is sealed for. */
export function envPurpose(name: string): string {
  return `env:${name}`;
}

/**
 * Values of a stdio upstream's environment that count as credentials (a catalog or result echoing
 * one is refused or scrubbed): 8 characters or more, so a flag such as `DEBUG=1` is no secret.
 */
export const MIN_ENV_SECRET = 8;

/** Opens a server's sealed environment (`--env`) with the key under `home` (its store's); empty when it has none. */
export async function openEnv(
  server: Pick<ServerRecord, "name" | "env">,
  home: string,
): Promise<Record<string, string>> {
  if (!server.env) return {};
  return JSON.parse(await unseal(server.env.sealed, envPurpose(server.name), home)) as Record<string, string>;
}

/** An open session to a registered server. */
export interface OpenServer {
  upstream: Upstream;
  /**
   * The server's secrets: the credentials presented (bearer token, OAuth tokens)
   * and every value this process sealed or opened for it ({@link sealedSecretsOf}).
   */
  secrets(): string[];
  close(): Promise<void>;
}

/** Connects to a registered, enabled server with its unsealed credentials. */
export async function openServer(
  db: DatabaseSync,
  server: ServerRecord,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<OpenServer> {
  let bearer: string | undefined;
  let provider: StoredOAuthProvider | undefined;
  const home = keyHomeOf(db);
  if (server.auth === "bearer" && server.secret) bearer = await unseal(server.secret, bearerPurpose(server.name), home);
  const env = await openEnv(server, home);
  if (server.auth === "oauth") {
    if (server.oauthStatus === "awaiting_consent" || server.oauthStatus === "reconnect_required") {
      throw needsConsent(server.name, server.oauthStatus);
    }
    provider = await openOAuthProvider(db, server);
  }
  let upstream: Upstream;
  try {
    upstream = await connectUpstream({
      name: server.name,
      transport: server.transport,
      url: server.url,
      command: server.command,
      cwd: server.cwd,
      env,
      bindRo: server.bindRo,
      // Beside its sealed secrets: the home of the store it is registered in, whatever POLY_STATE_HOME says now.
      stateHome: home,
      bearer,
      authProvider: provider,
      fetch: provider?.fetch,
    }, options);
  } catch (error) {
    if (provider && (error as { cause?: unknown }).cause instanceof UnauthorizedError) {
      const status = findServer(db, server.name)?.oauthStatus ?? "reconnect_required";
      throw needsConsent(server.name, status === "connected" ? "reconnect_required" : status);
    }
    // The failure quotes the upstream (its error, its stderr): redact the server's secrets from it.
    throw redactor([...(bearer ? [bearer] : []), ...sealedSecretsOf(server.name)]).error(error);
  }
  return {
    upstream,
    secrets: () => {
      const out: string[] = [];
      if (bearer) out.push(bearer);
      for (const value of Object.values(env)) if (value.length >= MIN_ENV_SECRET) out.push(value);
      const tokens = provider?.tokens();
      if (tokens?.access_token) out.push(tokens.access_token);
      if (tokens?.refresh_token) out.push(tokens.refresh_token);
      for (const value of sealedSecretsOf(server.name)) if (!out.includes(value)) out.push(value);
      return out;
    },
    close: () => upstream.close(),
  };
}

/**
 * Every secret sealed for server `name` that this process sealed or opened, of
 * any kind (OAuth state, environment values, ...: seal.ts `openedFor`), with the
 * secrets inside a sealed JSON value; values too short to search for are left out
 * (a catalog is refused when it contains a secret, and `DEBUG=1` is none).
 */
export function sealedSecretsOf(name: string): string[] {
  return [...new Set(openedFor(name).flatMap(secretValues))].filter((v) => v.length >= MIN_SECRET_CHARS);
}

function needsConsent(name: string, status: string): GatewayError {
  return new GatewayError(
    "oauth",
    `Server "${name}" needs a person's consent (status ${status}): run poly servers consent ${name}`,
  );
}
