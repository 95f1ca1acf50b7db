/**
 * The demo site's pages, addressed by path relative to the site root ("/", "/shop", ...).
 * Each page is plain HTML built from site/content.ts; links between pages give crawl and map
 * something to follow.
 */
import { ARTICLES, DOCS, PRODUCTS, type Product, SITE_NAME } from "./content.js";

export interface SitePage {
  path: string;
  title: string;
  description: string;
  kind: "home" | "listing" | "product" | "article" | "doc" | "info";
  /** Inner HTML of <main>. */
  body: string;
  /** Site-relative paths this page links to (besides the navigation). */
  links: string[];
}

const esc = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export const NAV_LINKS = ["/", "/shop", "/blog", "/docs", "/about", "/sitemap"];

const productPath = (p: Product) => `/shop/products/${p.slug}`;
const PRODUCTS_PER_SHOP_PAGE = 6;

function list(items: { path: string; label: string; note?: string }[]): string {
  const lis = items.map(
    (i) => `<li><a href="${i.path}">${esc(i.label)}</a>${i.note ? ` — ${esc(i.note)}` : ""}</li>`,
  );
  return `<ul>\n${lis.join("\n")}\n</ul>`;
}

function shopPage(page: number): SitePage {
  const slice = PRODUCTS.slice((page - 1) * PRODUCTS_PER_SHOP_PAGE, page * PRODUCTS_PER_SHOP_PAGE);
  const pages = Math.ceil(PRODUCTS.length / PRODUCTS_PER_SHOP_PAGE);
  const next = page < pages ? `/shop/page/${page + 1}` : undefined;
  const path = page === 1 ? "/shop" : `/shop/page/${page}`;
  const items = slice.map((p) => ({ path: productPath(p), label: p.name, note: `$${p.price.toFixed(2)}` }));
  const body = `<h1>Shop — page ${page} of ${pages}</h1>\n${list(items)}${next ? `\n<p><a href="${next}">Next page</a></p>` : ""}`;
  return {
    path,
    title: `Shop (page ${page}) | ${SITE_NAME}`,
    description: "Hiking boots, backpacks, jackets, tents and camp gear.",
    kind: "listing",
    body,
    links: [...items.map((i) => i.path), ...(next ? [next] : [])],
  };
}

function productPage(p: Product): SitePage {
  const related = ARTICLES.filter((a) => a.related.includes(p.slug)).map((a) => `/blog/${a.slug}`);
  const body = [
    `<h1 class="product-name">${esc(p.name)}</h1>`,
    `<p class="brand">Brand: ${esc(p.brand)}</p>`,
    `<p class="price" data-currency="USD">$${p.price.toFixed(2)}</p>`,
    `<p class="rating">Rated ${p.rating} out of 5 (${p.reviews} reviews)</p>`,
    `<p class="availability">${p.inStock ? "In stock" : "Out of stock"}</p>`,
    `<p class="description">${esc(p.summary)}</p>`,
    `<table><tr><th>SKU</th><td>ACME-${p.slug.slice(0, 6).toUpperCase()}</td></tr><tr><th>Category</th><td>${esc(p.category)}</td></tr></table>`,
    related.length ? `<h2>Read more</h2>\n${list(related.map((path) => ({ path, label: path })))}` : "",
  ].join("\n");
  return {
    path: productPath(p),
    title: `${p.name} | ${SITE_NAME}`,
    description: p.summary,
    kind: "product",
    body,
    links: [...related, "/shop"],
  };
}

function homePage(): SitePage {
  return {
    path: "/",
    title: `${SITE_NAME} — Outdoor gear, guides and docs`,
    description: "Outdoor gear shop with hiking guides, camping tips and customer docs.",
    kind: "home",
    body: `<h1>Welcome to ${SITE_NAME}</h1>\n<p>Gear for hiking, camping and trail running, and guides to use it well.</p>\n${list(
      PRODUCTS.slice(0, 4).map((p) => ({ path: productPath(p), label: p.name, note: "featured" })),
    )}`,
    links: [...PRODUCTS.slice(0, 4).map(productPath), `/blog/${ARTICLES[0].slug}`],
  };
}

function articlePage(a: (typeof ARTICLES)[number]): SitePage {
  const products = a.related.map((slug) => `/shop/products/${slug}`);
  return {
    path: `/blog/${a.slug}`,
    title: `${a.title} | ${SITE_NAME}`,
    description: a.summary,
    kind: "article",
    body: [
      `<article>\n<h1>${esc(a.title)}</h1>`,
      `<p class="byline">By ${esc(a.author)} on <time datetime="${a.date}">${a.date}</time></p>`,
      `<p class="summary"><strong>${esc(a.summary)}</strong></p>`,
      ...a.paragraphs.map((t) => `<p>${esc(t)}</p>`),
      `<h2>Gear mentioned</h2>\n${list(products.map((path) => ({ path, label: path })))}\n</article>`,
    ].join("\n"),
    links: [...products, "/blog"],
  };
}

function docPage(d: (typeof DOCS)[number]): SitePage {
  return {
    path: `/docs/${d.slug}`,
    title: `${d.title} | ${SITE_NAME}`,
    description: d.summary,
    kind: "doc",
    body: `<h1>${esc(d.title)}</h1>\n<p><em>${esc(d.summary)}</em></p>\n${d.paragraphs.map((t) => `<p>${esc(t)}</p>`).join("\n")}`,
    links: ["/docs", "/contact"],
  };
}

/** A listing of `items` (the blog, the docs). */
function listingPage(
  path: string,
  heading: string,
  description: string,
  items: { path: string; label: string; note?: string }[],
): SitePage {
  return {
    path,
    title: `${heading} | ${SITE_NAME}`,
    description,
    kind: "listing",
    body: `<h1>${heading}</h1>\n${list(items)}`,
    links: items.map((i) => i.path),
  };
}

const INFO_PAGES: SitePage[] = [
  {
    path: "/about",
    title: `About us | ${SITE_NAME}`,
    description: "A small outdoor shop run by hikers since 2009.",
    kind: "info",
    body: "<h1>About us</h1>\n<p>We are a small outdoor shop run by hikers since 2009.</p>",
    links: ["/contact"],
  },
  {
    path: "/contact",
    title: `Contact | ${SITE_NAME}`,
    description: "Email, phone and shop address.",
    kind: "info",
    body: "<h1>Contact</h1>\n<p>Email help@acme-outfitters.example or call +1 555 0100.</p>\n<address>12 Trail Road, Boulder, CO</address>",
    links: ["/docs"],
  },
];

function buildPages(): SitePage[] {
  const pages: SitePage[] = [homePage()];
  const shopPages = Math.ceil(PRODUCTS.length / PRODUCTS_PER_SHOP_PAGE);
  for (let n = 1; n <= shopPages; n++) pages.push(shopPage(n));
  for (const p of PRODUCTS) pages.push(productPage(p));
  const blogItems = ARTICLES.map((a) => ({ path: `/blog/${a.slug}`, label: a.title, note: a.summary }));
  pages.push(listingPage("/blog", "Blog", "Guides and tips for hiking and camping.", blogItems));
  pages.push(...ARTICLES.map(articlePage));
  const docItems = DOCS.map((d) => ({ path: `/docs/${d.slug}`, label: d.title, note: d.summary }));
  pages.push(
    listingPage("/docs", "Help and docs", "Customer help: shipping, returns, sizes and care.", docItems),
  );
  pages.push(...DOCS.map(docPage), ...INFO_PAGES);
  const all = [...pages.map((p) => p.path), "/sitemap"];
  pages.push({
    path: "/sitemap",
    title: `Site map | ${SITE_NAME}`,
    description: "Every page of the site.",
    kind: "info",
    body: `<h1>Site map</h1>\n${list(all.map((path) => ({ path, label: path })))}`,
    links: all,
  });
  return pages;
}

export const SITE_PAGES: readonly SitePage[] = buildPages();
const BY_PATH = new Map(SITE_PAGES.map((p) => [p.path, p]));

/** The page at a site-relative path ("/shop", "/blog/x"); a trailing slash is ignored. */
export function findPage(path: string): SitePage | undefined {
  const normal = path.length > 1 ? path.replace(/\/+$/, "") : path;
  return BY_PATH.get(normal || "/");
}

/** Full HTML of a page; links are absolute URLs under `siteUrl`. */
export function renderPage(page: SitePage, siteUrl: string): string {
  const nav = NAV_LINKS.map(
    (p) => `<a href="${siteUrl}${p === "/" ? "/" : p}">${p === "/" ? "Home" : p.slice(1)}</a>`,
  );
  const body = page.body.replace(/href="(\/[^"]*)"/g, (_m, p: string) => `href="${siteUrl}${p}"`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${esc(page.title)}</title>
<meta name="description" content="${esc(page.description)}">
</head>
<body>
<header><nav>${nav.join(" | ")}</nav></header>
<main>
${body}
</main>
<footer><p>&copy; 2026 ${SITE_NAME}</p></footer>
</body>
</html>
`;
}

export function notFoundHtml(path: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Page not found | ${SITE_NAME}</title></head>
<body><main><h1>Page not found</h1><p>There is no page at ${esc(path)}.</p></main></body></html>
`;
}
