/** Agent search (§4): POST /v2/search and, in generation 1, POST /v1/search (the same shape). */
import { SearchRequestSchema } from "../../api/schemas-v2.js";
import { parseBody } from "../http.js";
import { searchResponse } from "../lifecycle/search.js";
import type { Route } from "../routing.js";

export const SEARCH_ROUTES: Route[] = [
  {
    method: "POST",
    1: { path: "/v1/search" },
    2: { path: "/v2/search" },
    handle: async (c, { state }) => {
      const body = await parseBody(c, SearchRequestSchema);
      if (!body.ok) return body.response;
      return searchResponse(body.data, state.location.siteUrl);
    },
  },
];
