/**
 * Telling a whole-project job that failed for want of a network (cargo could
 * not reach its registry, go could not reach the module proxy) from one that
 * failed on the project: the first is an errored job, never cached, so a run
 * on a train does not become the project's result until the tree changes.
 *
 * @module
 */

/** Lines cargo and go print when a download or a registry lookup failed. */
const NETWORK = [
  /failed to download/i,
  /unable to update registry/i,
  /failed to fetch/i,
  /failed to get `[^`]+` as a dependency/i,
  /failed to query replaced source registry/i,
  /failed to load source for dependency/i,
  /could(?:n't| not) resolve host/i,
  /spurious network error/i,
  /network failure/i,
  /--offline was specified/i,
  /dial tcp/i,
  /lookup \S+(?: on \S+)?: no such host/i,
  /i\/o timeout/i,
  /tls handshake timeout/i,
  /module lookup disabled by GOPROXY=off/i,
  /connection refused/i,
  /temporary failure in name resolution/i,
];

/**
 * The first line of `output` that says a download failed, trimmed; undefined
 * when nothing in it points at the network.
 *
 * @example
 * ```ts
 * networkFailure("error: failed to download `serde v1.0.1`\n"); // "error: failed to download `serde v1.0.1`"
 * ```
 */
export function networkFailure(output: string): string | undefined {
  for (const line of output.split("\n")) {
    if (NETWORK.some((pattern) => pattern.test(line))) return line.trim();
  }
  return undefined;
}
