/**
 * Engine identities: for every in-process or bundled engine, the upstream version
 * it wraps and a blake3 digest of the module bytes it runs.
 *
 * @module
 */
import { createBLAKE3 } from "hash-wasm";
import { fileURLToPath as fromFileUrl } from "node:url";
import { ENGINES } from "../engines/registry.ts";

/** One engine's identity. */
export interface EngineIdentity {
  version: string;
  digest: string;
}

let memo: Promise<Record<string, EngineIdentity>> | undefined;

/** Engine id → {version, digest}; host tools are excluded. Computed once per process. */
export function engineIdentities(): Promise<Record<string, EngineIdentity>> {
  memo ??= compute();
  return memo;
}

async function compute(): Promise<Record<string, EngineIdentity>> {
  const out: Record<string, EngineIdentity> = {};
  for (const spec of ENGINES) {
    if (spec.tier === "host") continue;
    const hasher = await createBLAKE3();
    hasher.init();
    for (const url of await spec.moduleUrls()) {
      hasher.update(await Deno.readFile(url.startsWith("file:") ? fromFileUrl(url) : url));
    }
    out[spec.id] = { version: spec.upstream, digest: hasher.digest("hex") };
  }
  return out;
}
