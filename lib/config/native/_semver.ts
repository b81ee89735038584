/**
 * npm's range semantics (the `semver` package npm itself uses), for the ranges a `package.json` gives a tool
 * (lib/config/native/prettier.ts). Its own module so that a run loads it only where a repository names a range.
 *
 * @module
 */
// @ts-types="@types/semver"
import semver from "semver";

/** Whether `range` is one npm reads (`^2.8.8`, `2.x`, `>=1.19 <3`); `latest`, `workspace:*` and `catalog:` are not. */
export function validRange(range: string): boolean {
  return semver.validRange(range) !== null;
}

/** Whether `version` is one of those `range` admits. */
export function satisfies(version: string, range: string): boolean {
  return semver.satisfies(version, range);
}
