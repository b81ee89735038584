/**
 * The version poly presents to upstream servers.
 *
 * @module
 */
import denoJson from "../../deno.json" with { type: "json" };

/** poly's version, as sent in the MCP `clientInfo`. */
export function identity(): string {
  return String((denoJson as { version?: string }).version ?? "0.0.0");
}
