/**
 * Every migration, in application order. Each concern keeps its own file here
 * and adds its list to the end of this array.
 *
 * @module
 */
import type { Migration } from "../mod.ts";
import { FLEET_MIGRATIONS } from "./fleet.ts";
import { GATEWAY_MIGRATIONS } from "./gateway.ts";
import { ACCESS_MIGRATIONS } from "./access.ts";

/** All migrations. */
export const MIGRATIONS: Migration[] = [
  ...GATEWAY_MIGRATIONS,
  ...FLEET_MIGRATIONS,
  ...ACCESS_MIGRATIONS,
];
