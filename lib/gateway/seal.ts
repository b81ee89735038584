/**
 * Sealed secrets: bearer tokens and OAuth state are encrypted with AES-256-GCM before
 * they reach the store. The key is 32 random bytes in `<state home>/gateway.key`, mode
 * 0600, created on first use; a key file readable by others is refused.
 *
 * A sealed value is `v1.` + base64url(12-byte IV ‖ ciphertext ‖ tag). The additional
 * data binds it to its purpose (e.g. `bearer:github`), so a value copied to another
 * row or purpose does not open.
 *
 * A purpose names its server second: `<kind>:<server>` or `<kind>:<server>:<detail>`
 * (`bearer:github`, `oauth:github`, `env:github:GITHUB_TOKEN`). Every value this
 * process seals or opens is remembered under its purpose, so {@link openedFor} can
 * list every sealed secret of a server, whatever its kind, and the gateway redacts
 * them all from what that server answers (lib/gateway/redact.ts).
 *
 * @module
 */
import { dirname, join } from "node:path";
import { stateHome } from "../paths/mod.ts";
import { GatewayError } from "./errors.ts";

const PREFIX = "v1.";
const keys = new Map<string, Promise<CryptoKey>>();
/** Plain values sealed or opened by this process, by purpose (the last few of each, newest last). */
const opened = new Map<string, string[]>();
/** How many values of one purpose are remembered (an OAuth blob is sealed again at every refresh). */
const REMEMBERED_PER_PURPOSE = 8;

function remember(purpose: string, plaintext: string): void {
  const values = (opened.get(purpose) ?? []).filter((v) => v !== plaintext);
  values.push(plaintext);
  opened.set(purpose, values.slice(-REMEMBERED_PER_PURPOSE));
}

/** The server a purpose names (`<kind>:<server>[:<detail>]`), or undefined. */
export function purposeServer(purpose: string): string | undefined {
  return purpose.split(/[:/]/)[1] || undefined;
}

/**
 * Every plain value this process sealed or opened for a purpose naming `server`:
 * its bearer token, its OAuth state, its sealed environment values, and any other
 * kind sealed under the `<kind>:<server>[:<detail>]` convention.
 */
export function openedFor(server: string): string[] {
  const out: string[] = [];
  for (const [purpose, values] of opened) if (purposeServer(purpose) === server) out.push(...values);
  return out;
}

/** Path of the sealing key file. */
export function keyPath(home: string = stateHome()): string {
  return join(home, "gateway.key");
}

/**
 * The state home a store's secrets are sealed for: the folder of its database file
 * (`<state home>/poly.db`), so the key always sits beside the rows it opens, whatever
 * `POLY_STATE_HOME` says by the time a secret is opened; {@link stateHome} for an
 * in-memory store.
 */
export function keyHomeOf(db: { location(): string | null }): string {
  const file = db.location();
  return file ? dirname(file) : stateHome();
}

/** Loads (creating if needed) the sealing key under `home`. */
export function sealingKey(home: string = stateHome()): Promise<CryptoKey> {
  const path = keyPath(home);
  let key = keys.get(path);
  if (!key) {
    key = loadKey(home, path);
    keys.set(path, key);
    key.catch(() => keys.delete(path));
  }
  return key;
}

async function loadKey(home: string, path: string): Promise<CryptoKey> {
  let bytes = await readKey(path);
  if (!bytes) {
    await Deno.mkdir(home, { recursive: true, mode: 0o700 });
    const fresh = crypto.getRandomValues(new Uint8Array(32));
    const tmp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    await Deno.writeFile(tmp, fresh, { mode: 0o600, createNew: true });
    if (Deno.build.os !== "windows") await Deno.chmod(tmp, 0o600);
    try {
      // link() fails if another process created the key first: then use theirs.
      await Deno.link(tmp, path);
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
    } finally {
      await Deno.remove(tmp).catch(() => {});
    }
    bytes = await readKey(path);
    if (!bytes) throw new GatewayError("token", `Sealing key "${path}" could not be created`);
  }
  return await crypto.subtle.importKey("raw", bytes, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
}

async function readKey(path: string): Promise<Uint8Array<ArrayBuffer> | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
  if (Deno.build.os !== "windows" && info.mode !== null && (info.mode & 0o077) !== 0) {
    throw new GatewayError(
      "token",
      `Sealing key "${path}" is readable by other users (mode ${(info.mode & 0o777).toString(8)}): run chmod 600 on it`,
    );
  }
  const bytes = await Deno.readFile(path);
  if (bytes.length !== 32) throw new GatewayError("token", `Sealing key "${path}" is damaged: expected 32 bytes`);
  return bytes;
}

/** Encrypts `plaintext` for `purpose`. */
export async function seal(plaintext: string, purpose: string, home?: string): Promise<string> {
  const key = await sealingKey(home);
  remember(purpose, plaintext);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = new TextEncoder().encode(plaintext);
  const aad = new TextEncoder().encode(`poly-gateway:${purpose}`);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: aad }, key, data),
  );
  const out = new Uint8Array(iv.length + sealed.length);
  out.set(iv);
  out.set(sealed, iv.length);
  return PREFIX + toBase64Url(out);
}

/** Decrypts a value sealed for `purpose`; throws if it was tampered with, moved, or sealed with another key. */
export async function unseal(value: string, purpose: string, home?: string): Promise<string> {
  if (!value.startsWith(PREFIX)) throw new GatewayError("token", `A sealed secret for ${purpose} is damaged`);
  const bytes = fromBase64Url(value.slice(PREFIX.length));
  const key = await sealingKey(home);
  const aad = new TextEncoder().encode(`poly-gateway:${purpose}`);
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.slice(0, 12), additionalData: aad },
      key,
      bytes.slice(12),
    );
    const text = new TextDecoder().decode(plain);
    remember(purpose, text);
    return text;
  } catch (cause) {
    throw new GatewayError(
      "token",
      `The sealed secret for ${purpose} does not open with the key "${keyPath(home)}": register the server again`,
      { cause },
    );
  }
}

function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replaceAll("-", "+").replaceAll("_", "/");
  const s = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}
