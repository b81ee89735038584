/**
 * The Host and Origin checks of poly mcp --http (DNS-rebinding protection).
 */
import assert from "node:assert/strict";
import { checkOrigin, hostAllowed, originAllowed, originPolicy } from "../../../tools/serve/http_origin.ts";

const loopback = originPolicy({ hostname: "127.0.0.1" });
const configured = originPolicy({
  hostname: "0.0.0.0",
  allowedHosts: ["poly.example.com", "api.example.com:8443"],
  allowedOrigins: ["https://App.example.com/"],
});

Deno.test("hostAllowed() takes loopback names on any port, and configured hosts", () => {
  for (const h of ["localhost", "localhost:1", "127.0.0.1:8765", "[::1]:8765", "LOCALHOST:80"]) {
    assert.ok(hostAllowed(h, loopback), h);
  }
  for (const h of [null, "", "evil.example.com", "127.0.0.2:80", "localhost.evil.com", "[::2]:1", "a b"]) {
    assert.equal(hostAllowed(h, loopback), false, String(h));
  }
  assert.ok(hostAllowed("poly.example.com:443", configured), "no port in the entry: any port");
  assert.ok(hostAllowed("api.example.com:8443", configured));
  assert.equal(hostAllowed("api.example.com:9000", configured), false, "a port in the entry: that port only");
  assert.ok(hostAllowed("192.168.1.5:80", originPolicy({ hostname: "192.168.1.5" })), "a specific bind address");
  assert.equal(hostAllowed("0.0.0.0:80", configured), false, "a wildcard bind adds nothing");
});

Deno.test("originAllowed() takes no Origin, loopback origins and configured ones exactly", () => {
  assert.ok(originAllowed(null, loopback));
  for (const o of ["http://localhost:3000", "https://127.0.0.1", "http://[::1]:9"]) {
    assert.ok(originAllowed(o, loopback), o);
  }
  for (const o of ["null", "http://evil.example.com", "file://", "http://localhost.evil.com", "chrome-extension://x"]) {
    assert.equal(originAllowed(o, loopback), false, o);
  }
  assert.ok(originAllowed("https://app.example.com", configured));
  assert.equal(originAllowed("http://app.example.com", configured), false, "the scheme must match");
});

Deno.test("checkOrigin() names what was refused and how to allow it", () => {
  const h = (o: Record<string, string>) => new Headers(o);
  assert.equal(checkOrigin(h({ host: "localhost:1" }), loopback), undefined);
  assert.match(checkOrigin(h({ host: "evil.com" }), loopback) ?? "", /Host "evil\.com" is not allowed.*allowed_hosts/);
  assert.match(
    checkOrigin(h({ host: "localhost", origin: "http://evil.com" }), loopback) ?? "",
    /Origin "http:\/\/evil\.com" is not allowed.*allowed_origins/,
  );
});
