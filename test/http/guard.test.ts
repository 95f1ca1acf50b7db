import { describe, expect, it } from "vitest";
import {
  buildAllowList,
  checkBearer,
  checkHostAndOrigin,
  hostAllowed,
  isLoopbackHost,
  originAllowed,
  safeEqual,
} from "../../src/server/http/auth/guard.js";

const local = buildAllowList({ host: "127.0.0.1", port: 8787 });

describe("Host allow-list", () => {
  it("accepts loopback names with the listening port", () => {
    for (const h of ["127.0.0.1:8787", "localhost:8787", "LOCALHOST:8787", "[::1]:8787"]) {
      expect(hostAllowed(h, local), h).toBe(true);
    }
  });

  it("refuses other names, other ports, a missing or malformed Host", () => {
    for (const h of [
      "evil.example.com",
      "evil.example.com:8787",
      "127.0.0.1:9999",
      "localhost",
      "127.0.0.1:8787/x",
      "user@127.0.0.1:8787",
      "",
    ]) {
      expect(hostAllowed(h, local), h).toBe(false);
    }
    expect(hostAllowed(undefined, local)).toBe(false);
  });

  it("adds the operator's hosts: a bare name allows any port, name:port only that port", () => {
    const allow = buildAllowList({
      host: "0.0.0.0",
      port: 8787,
      extraHosts: ["mcp.internal", "gw.example.com:443"],
    });
    expect(hostAllowed("mcp.internal:1234", allow)).toBe(true);
    expect(hostAllowed("gw.example.com:443", allow)).toBe(true);
    expect(hostAllowed("gw.example.com:80", allow)).toBe(false);
    expect(hostAllowed("0.0.0.0:8787", allow)).toBe(false);
  });

  it("allows the public URL's host and origin, and '*' turns the Host check off", () => {
    const allow = buildAllowList({ host: "127.0.0.1", port: 1, publicUrl: "https://hooks.example.com" });
    expect(hostAllowed("hooks.example.com", allow)).toBe(true);
    expect(originAllowed("https://hooks.example.com", allow)).toBe(true);
    expect(hostAllowed("anything:1", buildAllowList({ host: "::", port: 1, extraHosts: ["*"] }))).toBe(true);
  });

  it("recognises loopback binds", () => {
    expect(["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"].every(isLoopbackHost)).toBe(true);
    expect(["0.0.0.0", "::", "192.168.1.2", "example.com"].some(isLoopbackHost)).toBe(false);
  });
});

describe("Origin allow-list", () => {
  it("lets requests without Origin through and checks the others", () => {
    expect(originAllowed(undefined, local)).toBe(true);
    expect(originAllowed("http://localhost:8787", local)).toBe(true);
    expect(originAllowed("http://127.0.0.1:8787", local)).toBe(true);
    expect(originAllowed("http://evil.example.com", local)).toBe(false);
    expect(originAllowed("http://localhost:9999", local)).toBe(false);
    expect(originAllowed("null", local)).toBe(false);
  });

  it("takes extra origins, normalised", () => {
    const allow = buildAllowList({ host: "127.0.0.1", port: 1, extraOrigins: ["https://App.Example.com/"] });
    expect(originAllowed("https://app.example.com", allow)).toBe(true);
  });

  it("answers 403 with a message that does not echo the header", () => {
    const refused = checkHostAndOrigin({ host: "127.0.0.1:8787", origin: "http://evil.example.com" }, local);
    expect(refused?.status).toBe(403);
    expect(refused?.message).not.toContain("evil");
    expect(checkHostAndOrigin({ host: "localhost:8787" }, local)).toBeUndefined();
  });
});

describe("bearer token", () => {
  const token = "s3cret-token-value";

  it("is open when no token is configured", () => {
    expect(checkBearer({}, undefined)).toBeUndefined();
  });

  it("refuses a missing, malformed or wrong token with 401 without echoing it", () => {
    for (const authorization of [undefined, "", "Basic abc", "Bearer", `Bearer ${token}x`, "Bearer s3cret"]) {
      const refused = checkBearer({ authorization }, token);
      expect(refused?.status, String(authorization)).toBe(401);
      expect(refused?.message).not.toContain(token);
    }
  });

  it("accepts the right token, scheme case-insensitive", () => {
    expect(checkBearer({ authorization: `Bearer ${token}` }, token)).toBeUndefined();
    expect(checkBearer({ authorization: `bearer ${token}` }, token)).toBeUndefined();
  });

  it("compares strings of any length", () => {
    expect(safeEqual("a", "a")).toBe(true);
    expect(safeEqual("a", "ab")).toBe(false);
    expect(safeEqual("", "x")).toBe(false);
  });
});
