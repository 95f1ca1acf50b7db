/**
 * The client's settings that configuration fills (`src/config.ts` reads the environment into
 * them; the server and the CLI turn a `Config` into client options, `server/client-options.ts`):
 * defined here so the client takes options and imports no configuration.
 */

/** The API's generations: `/v1` and `/v2` routes (generations.ts). */
export type ApiGeneration = 1 | 2;
/** Which generation to speak: `auto` (2 first, falling back to 1 where a route is missing), 2 or 1. */
export type GenerationSetting = "auto" | ApiGeneration;

/** As undici's `EnvHttpProxyAgent` takes them ("" = none). */
export interface ProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

/** Requests per second a client sends at most by default (the service's documented limit). */
export const DEFAULT_MAX_RPS = 83;
