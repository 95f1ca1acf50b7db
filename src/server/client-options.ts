/**
 * The API client options a config sets. Every client the server builds (stdio's one, HTTP's one
 * per API key) takes them from here, so none misses one: HTTP mode's clients once went without
 * the proxy the environment names.
 */
import type { WebDataClientOptions } from "../api/client.js";
import type { Config } from "../config.js";

export function clientOptionsFrom(config: Config, apiKey: string): WebDataClientOptions {
  return {
    baseUrl: config.baseUrl,
    apiKey,
    legacyBaseUrl: config.legacyBaseUrl,
    legacyAuth: config.legacyAuth,
    maxRps: config.maxRps,
    proxy: config.proxy,
    generation: config.apiGeneration,
  };
}
