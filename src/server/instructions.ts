/** What the server tells a client about its tools, in `initialize` (2025) and `server/discover` (2026-07-28). */
export const INSTRUCTIONS =
  "Web data tools: search engines (serp_search), page content as Markdown (extract_page, extract_batch), " +
  "site map and crawl, pre-built extraction agents and templates. Long work returns a handle when it " +
  "runs past the wait limit: continue it with get_task using the ids given.";
