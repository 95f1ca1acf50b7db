/** Built-in extract templates (v2), each with several versions; the highest number is current. */
import type { TemplateVersion } from "../../api/schemas.js";
import { stableUuid } from "../hash.js";

type Schema = Record<string, unknown>;

const str = (extra: Schema = {}) => ({ type: "string", ...extra });
const num = (extra: Schema = {}) => ({ type: "number", ...extra });
const url = str({ pattern: "^https?://", maxLength: 2048, description: "Page URL" });
const country = str({ minLength: 2, maxLength: 2, description: "ISO alpha-2 country code" });
const objectSchema = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

interface TemplateSpec {
  name: string;
  display_name: string;
  vertical: string;
  entity_type: string;
  domain: string;
  description: string;
  tags: string[];
  versions: { input: Schema; output: Schema; sample: { input: unknown; output: unknown } }[];
}

const productOutputV1 = objectSchema({ title: str(), price: num({ minimum: 0 }), currency: str() });
const productOutputV2 = objectSchema({
  title: str(),
  price: num({ minimum: 0 }),
  currency: str(),
  rating: num({ minimum: 0, maximum: 5 }),
  in_stock: { type: "boolean" },
  images: { type: "array", items: str({ format: "uri" }) },
});

const SPECS: TemplateSpec[] = [
  {
    name: "ecommerce_product",
    display_name: "E-commerce product",
    vertical: "ecommerce",
    entity_type: "product",
    domain: "shop.example.com",
    description: "Structured product data from a product page.",
    tags: ["ecommerce", "product", "price"],
    versions: [
      {
        input: objectSchema({ url }, ["url"]),
        output: productOutputV1,
        sample: {
          input: { url: "https://shop.example.com/p/1" },
          output: { title: "Boots", price: 149, currency: "USD" },
        },
      },
      {
        input: objectSchema({ url, country }, ["url"]),
        output: productOutputV2,
        sample: {
          input: { url: "https://shop.example.com/p/1", country: "us" },
          output: { title: "Boots", price: 149, currency: "USD", rating: 4.6, in_stock: true, images: [] },
        },
      },
    ],
  },
  {
    name: "serp_listing",
    display_name: "Search results listing",
    vertical: "search",
    entity_type: "serp",
    domain: "search.example.org",
    description: "Organic results of a search engine for a query.",
    tags: ["search", "serp"],
    versions: [
      {
        input: objectSchema({ query: str({ minLength: 1, maxLength: 200 }) }, ["query"]),
        output: objectSchema({
          organic: { type: "array", items: objectSchema({ title: str(), url: str({ format: "uri" }) }) },
        }),
        sample: {
          input: { query: "boots" },
          output: { organic: [{ title: "Boots", url: "https://a.example/" }] },
        },
      },
      {
        input: objectSchema(
          {
            query: str({ minLength: 1, maxLength: 200 }),
            page: { type: "integer", minimum: 1, maximum: 20 },
            country,
          },
          ["query"],
        ),
        output: objectSchema({
          organic: {
            type: "array",
            items: objectSchema({
              position: { type: "integer", minimum: 1 },
              title: str(),
              url: str({ format: "uri" }),
              snippet: str(),
            }),
          },
        }),
        sample: { input: { query: "boots", page: 1 }, output: { organic: [] } },
      },
      {
        input: objectSchema(
          {
            query: str({ minLength: 1, maxLength: 200 }),
            page: { type: "integer", minimum: 1, maximum: 20 },
            country,
            device: { type: "string", enum: ["desktop", "mobile"] },
          },
          ["query"],
        ),
        output: objectSchema({
          organic: {
            type: "array",
            items: objectSchema({
              position: { type: "integer", minimum: 1 },
              title: str(),
              url: str({ format: "uri" }),
              snippet: str(),
            }),
          },
          related_searches: { type: "array", items: str() },
        }),
        sample: {
          input: { query: "boots", device: "mobile" },
          output: { organic: [], related_searches: [] },
        },
      },
    ],
  },
  {
    name: "news_article",
    display_name: "News article",
    vertical: "news",
    entity_type: "article",
    domain: "news.example.com",
    description: "Headline, author, date and text of a news article.",
    tags: ["news", "article"],
    versions: [
      {
        input: objectSchema({ url }, ["url"]),
        output: objectSchema({ headline: str(), body: str() }),
        sample: { input: { url: "https://news.example.com/a" }, output: { headline: "H", body: "B" } },
      },
      {
        input: objectSchema({ url }, ["url"]),
        output: objectSchema({
          headline: str(),
          author: str(),
          published_at: str({ format: "date-time" }),
          body: str(),
        }),
        sample: {
          input: { url: "https://news.example.com/a" },
          output: { headline: "H", author: "A", body: "B" },
        },
      },
    ],
  },
  {
    name: "job_posting",
    display_name: "Job posting",
    vertical: "jobs",
    entity_type: "job",
    domain: "jobs.example.com",
    description: "Title, company, location and salary of a job ad.",
    tags: ["jobs"],
    versions: [
      {
        input: objectSchema({ url }, ["url"]),
        output: objectSchema({ title: str(), company: str(), location: str() }),
        sample: {
          input: { url: "https://jobs.example.com/j/1" },
          output: { title: "T", company: "C", location: "L" },
        },
      },
      {
        input: objectSchema({ url, country }, ["url"]),
        output: objectSchema({
          title: str(),
          company: str(),
          location: str(),
          salary_min: num(),
          salary_max: num(),
        }),
        sample: {
          input: { url: "https://jobs.example.com/j/1" },
          output: { title: "T", company: "C", location: "L" },
        },
      },
    ],
  },
];

function versionsOf(spec: TemplateSpec): TemplateVersion[] {
  return spec.versions.map((v, i) => ({
    id: stableUuid(`${spec.name}@${i + 1}`),
    name: spec.name,
    version_number: i + 1,
    created_at: new Date(Date.UTC(2026, 0, 10 + i * 30)).toISOString(),
    input_schema: v.input,
    output_schema: v.output,
    metadata: {
      data_source: spec.domain,
      description: spec.description,
      display_name: spec.display_name,
      domain: spec.domain,
      entity_type: spec.entity_type,
      vertical: spec.vertical,
      tags: spec.tags,
    },
    samples: [v.sample],
  }));
}

/** Template name → versions, newest first. */
export const TEMPLATES: ReadonlyMap<string, TemplateVersion[]> = new Map(
  SPECS.map((spec) => [spec.name, versionsOf(spec).reverse()]),
);
