/**
 * The TOON encoder (`@toon-format/toon`), as a local module so commands and the
 * MCP server can load it lazily (`await import("../report/toon.ts")`) when a
 * caller asks for TOON.
 *
 * @module
 */
export { encode } from "@toon-format/toon";
