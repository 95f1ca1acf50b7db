/** Built-in agents: e-commerce, search, maps and travel. */
import type { AgentDetail } from "../../api/schemas.js";
import {
  agent,
  arr,
  b,
  countryParam,
  n,
  obj,
  pageParam,
  param,
  queryParam,
  s,
  uri,
  urlParam,
} from "./define.js";

const listingItem = obj("One listed product", {
  position: n("Rank on the page", { minimum: 1 }),
  title: s("Product title"),
  url: uri("Product page URL"),
  price: n("Price in the listing currency", { minimum: 0 }),
  rating: n("Average rating", { minimum: 0, maximum: 5 }),
});

export const COMMERCE_AGENTS: AgentDetail[] = [
  agent({
    name: "ecommerce_product_page",
    display_name: "E-commerce product page",
    description: "Extracts title, price, availability, rating and images from a product page.",
    vertical: "ecommerce",
    entity_type: "product",
    domain: "shop.example.com",
    inputs: [urlParam("product page", "https://shop.example.com/p/123"), countryParam()],
    output: {
      title: s("Product title"),
      price: n("Current price", { minimum: 0 }),
      currency: s("ISO 4217 currency code"),
      in_stock: b("Whether the product can be bought now"),
      rating: n("Average rating", { minimum: 0, maximum: 5 }),
      reviews_count: n("Number of reviews", { minimum: 0 }),
      brand: s("Brand name"),
      images: arr("Image URLs", uri("Image URL")),
      specifications: obj("Key specifications", { weight: s("Weight"), material: s("Main material") }),
    },
  }),
  agent({
    name: "ecommerce_search_listing",
    display_name: "E-commerce search listing",
    description: "Lists the products a shop's search returns for a keyword, page by page.",
    vertical: "ecommerce",
    entity_type: "product_listing",
    domain: "https://www.shop.example.com",
    inputs: [
      queryParam(["hiking boots", "backpack"]),
      pageParam(),
      countryParam(),
      param("sort", "string", "Sort order of the listing", {
        rules: ["one_of:relevance|price_asc|price_desc|rating"],
        default: "relevance",
        examples: ["price_asc"],
      }),
    ],
    output: {
      total_results: n("Total number of matching products", { minimum: 0 }),
      products: arr("Products", listingItem),
    },
  }),
  agent({
    name: "marketplace_offers",
    display_name: "Marketplace offers",
    description: "Lists the sellers and prices offered for one product on a marketplace.",
    vertical: "ecommerce",
    entity_type: "offer",
    domain: "market.example.net",
    inputs: [
      param("product_id", "string", "Marketplace product identifier", {
        required: true,
        rules: ["pattern:^[A-Z0-9]{10}$"],
        examples: ["B00EXAMPLE"],
      }),
      countryParam(),
    ],
    output: {
      offers: arr(
        "Offers",
        obj("An offer", {
          seller: s("Seller name"),
          price: n("Price", { minimum: 0 }),
          condition: s("new or used"),
        }),
      ),
    },
  }),
  agent({
    name: "product_reviews",
    display_name: "Product reviews",
    description: "Collects the customer reviews of a product page, page by page.",
    vertical: "ecommerce",
    entity_type: "review",
    domain: "shop.example.com",
    inputs: [urlParam("product page", "https://shop.example.com/p/123"), pageParam(100)],
    output: {
      reviews: arr(
        "Reviews",
        obj("A review", {
          author: s("Reviewer name"),
          rating: n("Stars", { minimum: 1, maximum: 5 }),
          title: s("Review title"),
          body: s("Review text"),
          date: s("Date of the review", { format: "date" }),
        }),
      ),
    },
  }),
  agent({
    name: "price_comparison",
    display_name: "Price comparison",
    description: "Compares prices for a product across shops.",
    vertical: "ecommerce",
    entity_type: "price",
    domain: null,
    managed_by: "community",
    inputs: [queryParam(["aurora down jacket"]), countryParam()],
    output: {
      lowest_price: n("Lowest price found", { minimum: 0 }),
      shops: arr(
        "Shops",
        obj("A shop's price", { shop: s("Shop name"), price: n("Price"), url: uri("Offer URL") }),
      ),
    },
  }),
  agent({
    name: "serp_web_listing",
    display_name: "Search engine results",
    description: "Organic results of a web search engine for a query.",
    vertical: "search",
    entity_type: "serp",
    domain: "search.example.org",
    inputs: [
      queryParam(["best hiking boots"]),
      pageParam(10),
      countryParam(),
      param("device", "string", "Device to emulate", {
        rules: ["one_of:desktop|mobile"],
        default: "desktop",
      }),
    ],
    output: {
      organic: arr(
        "Organic results",
        obj("A result", {
          position: n("Rank", { minimum: 1 }),
          title: s("Title"),
          url: uri("URL"),
          snippet: s("Snippet"),
        }),
      ),
      related_searches: arr("Related searches", s("A related query")),
    },
  }),
  agent({
    name: "maps_place_details",
    display_name: "Maps place details",
    description: "Name, address, rating, opening hours and location of a place on a map service.",
    vertical: "maps",
    entity_type: "place",
    domain: "maps.example.com",
    inputs: [
      param("place_id", "string", "Identifier of the place on the map service", {
        required: true,
        rules: ["min_length:6", "max_length:100"],
        examples: ["ChIJN1t_tDeuEmsR"],
      }),
      param("language", "string", "Language of the answer", {
        rules: ["one_of:en|de|fr|es"],
        default: "en",
        localization: true,
      }),
    ],
    output: {
      name: s("Place name"),
      address: s("Postal address"),
      rating: n("Average rating", { minimum: 0, maximum: 5 }),
      reviews_count: n("Number of reviews", { minimum: 0 }),
      phone: s("Phone number"),
      website: uri("Website"),
      location: obj("Coordinates", { latitude: n("Latitude"), longitude: n("Longitude") }),
      opening_hours: arr("Opening hours per day", s("Day and hours")),
    },
  }),
  agent({
    name: "maps_reviews",
    display_name: "Maps reviews",
    description: "Reviews of a place on a map service, page by page.",
    vertical: "maps",
    entity_type: "review",
    domain: "https://maps.example.com",
    inputs: [
      param("place_id", "string", "Identifier of the place", { required: true, rules: ["min_length:6"] }),
      pageParam(),
      param("sort", "string", "Review order", {
        rules: ["one_of:newest|most_relevant|highest|lowest"],
        default: "newest",
      }),
    ],
    output: {
      reviews: arr(
        "Reviews",
        obj("A review", {
          author: s("Author"),
          rating: n("Stars", { minimum: 1, maximum: 5 }),
          text: s("Text"),
        }),
      ),
    },
  }),
  agent({
    name: "hotel_listing",
    display_name: "Hotel listing",
    description: "Price, stars and amenities of a hotel for given dates.",
    vertical: "travel",
    entity_type: "hotel",
    domain: "hotels.example.com",
    inputs: [
      urlParam("hotel page", "https://hotels.example.com/h/42"),
      param("check_in", "string", "Arrival date (YYYY-MM-DD)", {
        required: true,
        rules: ["pattern:^\\d{4}-\\d{2}-\\d{2}$"],
      }),
      param("check_out", "string", "Departure date (YYYY-MM-DD)", {
        required: true,
        rules: ["pattern:^\\d{4}-\\d{2}-\\d{2}$"],
      }),
      param("guests", "integer", "Number of guests", { rules: ["min:1", "max:10"], default: 2 }),
      countryParam(),
    ],
    output: {
      name: s("Hotel name"),
      stars: n("Star rating", { minimum: 1, maximum: 5 }),
      price_per_night: n("Price per night", { minimum: 0 }),
      currency: s("Currency"),
      amenities: arr("Amenities", s("Amenity")),
    },
  }),
  agent({
    name: "hotel_search",
    display_name: "Hotel search",
    description: "Hotels available in a destination, page by page.",
    vertical: "travel",
    entity_type: "hotel_listing",
    domain: "hotels.example.com",
    inputs: [
      param("destination", "string", "City or region", {
        required: true,
        rules: ["min_length:2"],
        examples: ["Lisbon"],
      }),
      param("check_in", "string", "Arrival date (YYYY-MM-DD)", { rules: ["pattern:^\\d{4}-\\d{2}-\\d{2}$"] }),
      pageParam(20),
    ],
    output: {
      hotels: arr(
        "Hotels",
        obj("A hotel", { name: s("Name"), price: n("Price"), url: uri("URL"), stars: n("Stars") }),
      ),
    },
  }),
  agent({
    name: "flight_search",
    display_name: "Flight search",
    description: "Flights between two airports on a date.",
    vertical: "travel",
    entity_type: "flight",
    domain: "flights.example.com",
    inputs: [
      param("origin", "string", "IATA code of the departure airport", {
        required: true,
        rules: ["pattern:^[A-Z]{3}$"],
        examples: ["LIS"],
      }),
      param("destination", "string", "IATA code of the arrival airport", {
        required: true,
        rules: ["pattern:^[A-Z]{3}$"],
        examples: ["BER"],
      }),
      param("date", "string", "Departure date (YYYY-MM-DD)", {
        required: true,
        rules: ["pattern:^\\d{4}-\\d{2}-\\d{2}$"],
      }),
      param("passengers", "integer", "Number of passengers", { rules: ["min:1", "max:9"], default: 1 }),
    ],
    output: {
      flights: arr(
        "Flights",
        obj("A flight", {
          carrier: s("Airline"),
          departure: s("Departure time"),
          price: n("Fare"),
          stops: n("Stops"),
        }),
      ),
    },
  }),
];
