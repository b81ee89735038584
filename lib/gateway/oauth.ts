/**
 * OAuth upstreams: authorization code with PKCE through the SDK's client auth
 * (`OAuthClientProvider` + `auth()`), with everything the flow keeps (client
 * registration, tokens, PKCE verifier, state, discovery) sealed in the server's row.
 *
 * Status of an OAuth server:
 * - `awaiting_consent`: registered, no tokens yet (`poly servers consent NAME`);
 * - `connected`: tokens work;
 * - `refreshing`: poly is exchanging the refresh token right now;
 * - `reconnect_required`: the tokens were refused and could not be refreshed; a person
 *   must consent again.
 *
 * Consent runs a one-shot HTTP listener on 127.0.0.1 (the redirect URI), prints the
 * authorization URL, waits for the browser to come back with the code, checks `state`,
 * and exchanges the code (with the PKCE verifier) for tokens.
 *
 * @module
 */
import type { DatabaseSync } from "../store/mod.ts";
import { auth } from "./_sdk.ts";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from "./_sdk.ts";
import { GatewayError } from "./errors.ts";
import { keyHomeOf, seal, unseal } from "./seal.ts";
import { findServer, type OAuthStatus, type ServerRecord, updateCredentials } from "./store.ts";

/** What the sealed OAuth blob holds. */
interface OAuthSecret {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  verifier?: string;
  state?: string;
  discovery?: OAuthDiscoveryState;
}

/** Purpose string the OAuth blob is sealed for. */
export function oauthPurpose(name: string): string {
  return `oauth:${name}`;
}

/** A provider backed by the server's sealed row. Create it with {@link openOAuthProvider}. */
export class StoredOAuthProvider implements OAuthClientProvider {
  #db: DatabaseSync;
  #server: ServerRecord;
  #secret: OAuthSecret;
  #hadTokens: boolean;
  /** Set when the SDK wants the user agent sent to the authorization server. */
  authorizationUrl?: URL;
  /** Interactive consent in progress: redirects are expected, not failures. */
  interactive = false;

  constructor(db: DatabaseSync, server: ServerRecord, secret: OAuthSecret) {
    this.#db = db;
    this.#server = server;
    this.#secret = secret;
    this.#hadTokens = secret.tokens !== undefined;
  }

  get redirectUrl(): string {
    const port = this.#server.oauthConfig?.redirectPort;
    if (!port) throw new GatewayError("oauth", `Server "${this.#server.name}" has no redirect port yet: consent first`);
    return `http://127.0.0.1:${port}/callback`;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "poly",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...(this.#server.oauthConfig?.scope ? { scope: this.#server.oauthConfig.scope } : {}),
    };
  }

  async state(): Promise<string> {
    this.#secret.state = crypto.randomUUID();
    await this.#save();
    return this.#secret.state;
  }

  /** The `state` value sent with the last authorization request. */
  expectedState(): string | undefined {
    return this.#secret.state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (this.#secret.client) return this.#secret.client;
    const id = this.#server.oauthConfig?.clientId;
    return id ? { client_id: id } : undefined;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    this.#secret.client = info;
    await this.#save();
  }

  tokens(): OAuthTokens | undefined {
    return this.#secret.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.#secret.tokens = tokens;
    this.#secret.verifier = undefined;
    this.#hadTokens = true;
    await this.#save("connected");
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrl = url;
    if (!this.interactive) {
      await this.#save(this.#hadTokens ? "reconnect_required" : "awaiting_consent");
    }
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    this.#secret.verifier = verifier;
    await this.#save();
  }

  codeVerifier(): string {
    if (!this.#secret.verifier) throw new GatewayError("oauth", "No PKCE code verifier was saved for this consent");
    return this.#secret.verifier;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "all" || scope === "client") this.#secret.client = undefined;
    if (scope === "all" || scope === "tokens") this.#secret.tokens = undefined;
    if (scope === "all" || scope === "verifier") this.#secret.verifier = undefined;
    if (scope === "all" || scope === "discovery") this.#secret.discovery = undefined;
    await this.#save();
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.#secret.discovery = state;
    await this.#save();
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#secret.discovery;
  }

  /** Marks the status (e.g. `refreshing`) without changing the secret. */
  setStatus(status: OAuthStatus): void {
    updateCredentials(this.#db, this.#server.name, { oauthStatus: status });
  }

  /** The access token in use (for the catalog echo check). */
  accessToken(): string | undefined {
    return this.#secret.tokens?.access_token;
  }

  async #save(status?: OAuthStatus): Promise<void> {
    const sealed = await seal(JSON.stringify(this.#secret), oauthPurpose(this.#server.name), keyHomeOf(this.#db));
    updateCredentials(this.#db, this.#server.name, { secret: sealed, oauthStatus: status });
  }

  /**
   * A fetch for the transport and the SDK's token requests: a refresh-token exchange
   * sets the status to `refreshing` while it runs.
   */
  fetch: typeof fetch = async (input, init) => {
    const body = init?.body;
    const refreshing = body instanceof URLSearchParams && body.get("grant_type") === "refresh_token";
    if (!refreshing) return await fetch(input, init);
    this.setStatus("refreshing");
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      // The authorization server was not reached: the tokens are as they were.
      this.setStatus("connected");
      throw error;
    }
    if (!response.ok) this.setStatus("reconnect_required");
    return response;
  };
}

/** Opens the provider of an OAuth server from its sealed row. */
export async function openOAuthProvider(db: DatabaseSync, server: ServerRecord): Promise<StoredOAuthProvider> {
  const fresh = findServer(db, server.name) ?? server;
  const secret: OAuthSecret = fresh.secret
    ? JSON.parse(await unseal(fresh.secret, oauthPurpose(fresh.name), keyHomeOf(db)))
    : {};
  return new StoredOAuthProvider(db, fresh, secret);
}

/** Options for {@link runConsent}. */
export interface ConsentOptions {
  /** Called with the URL the person must open. */
  onAuthorizationUrl(url: URL): Promise<void> | void;
  /** How long to wait for the browser to come back (default 5 minutes). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Loopback port for the redirect URI when none is recorded yet (default: any free port). */
  port?: number;
}

/**
 * Runs the authorization code flow with PKCE for an OAuth server: listens on the
 * loopback redirect URI, sends the person to the authorization URL, exchanges the code.
 * On success the tokens are sealed and the status is `connected`.
 */
export async function runConsent(db: DatabaseSync, name: string, options: ConsentOptions): Promise<void> {
  let server = findServer(db, name);
  if (!server || server.auth !== "oauth" || !server.url) {
    throw new GatewayError("oauth", `Server "${name}" is not an OAuth server`);
  }
  let resolveCode!: (code: string) => void;
  let rejectCode!: (error: Error) => void;
  const code = new Promise<string>((res, rej) => {
    resolveCode = res;
    rejectCode = rej;
  });
  code.catch(() => {});
  let provider: StoredOAuthProvider | undefined;
  const listener = Deno.serve({
    hostname: "127.0.0.1",
    port: server.oauthConfig?.redirectPort ?? options.port ?? 0,
    onListen: () => {},
  }, (request) => {
    const url = new URL(request.url);
    if (url.pathname !== "/callback") return new Response("Not found", { status: 404 });
    const error = url.searchParams.get("error");
    const got = url.searchParams.get("code");
    if (url.searchParams.get("state") !== provider?.expectedState()) {
      rejectCode(new GatewayError("oauth", `Consent for "${name}" failed: the redirect carried the wrong state`));
      return page("The authorization response did not match this request. Start again with poly servers consent.", 400);
    }
    if (error || !got) {
      const detail = url.searchParams.get("error_description") ?? error ?? "no code";
      rejectCode(new GatewayError("oauth", `Consent for "${name}" was refused by the authorization server: ${detail}`));
      return page(`Authorization failed: ${detail}`, 400);
    }
    resolveCode(got);
    return page("poly received the authorization. You can close this tab.", 200);
  });
  const abort = () => rejectCode(new GatewayError("oauth", `Consent for "${name}" was cancelled`));
  options.signal?.addEventListener("abort", abort, { once: true });
  const timer = setTimeout(
    () => rejectCode(new GatewayError("oauth", `Consent for "${name}" timed out waiting for the browser`)),
    options.timeoutMs ?? 300_000,
  );
  try {
    const port = (listener.addr as Deno.NetAddr).port;
    if (server.oauthConfig?.redirectPort !== port) {
      updateCredentials(db, name, { oauthConfig: { ...server.oauthConfig, redirectPort: port } });
      server = findServer(db, name)!;
    }
    provider = await openOAuthProvider(db, server);
    provider.interactive = true;
    const first = await auth(provider, { serverUrl: server.url!, fetchFn: provider.fetch });
    if (first === "AUTHORIZED") return;
    if (!provider.authorizationUrl) {
      throw new GatewayError("oauth", `Consent for "${name}" produced no authorization URL`);
    }
    await options.onAuthorizationUrl(provider.authorizationUrl);
    const authorizationCode = await code;
    const done = await auth(provider, { serverUrl: server.url!, authorizationCode, fetchFn: provider.fetch });
    if (done !== "AUTHORIZED") throw new GatewayError("oauth", `Consent for "${name}" did not yield tokens`);
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw new GatewayError("oauth", `Consent for "${name}" failed: ${error instanceof Error ? error.message : error}`, {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", abort);
    await listener.shutdown();
  }
}

function page(text: string, status: number): Response {
  const html = `<!doctype html><meta charset="utf-8"><title>poly</title><p>${
    text.replace(/[<&>]/g, (c) => `&#${c.charCodeAt(0)};`)
  }</p>`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8" } });
}
