/** The demo site's content: a small outdoor-gear shop with a blog and docs. */

export interface Product {
  slug: string;
  name: string;
  brand: string;
  category: string;
  price: number;
  rating: number;
  reviews: number;
  inStock: boolean;
  summary: string;
}

export interface Article {
  slug: string;
  title: string;
  author: string;
  date: string;
  summary: string;
  paragraphs: string[];
  related: string[];
}

export interface DocPage {
  slug: string;
  title: string;
  summary: string;
  paragraphs: string[];
}

export const SITE_NAME = "Acme Outfitters";

const product = (
  slug: string,
  name: string,
  brand: string,
  category: string,
  price: number,
  rating: number,
  reviews: number,
  summary: string,
): Product => ({ slug, name, brand, category, price, rating, reviews, inStock: reviews % 7 !== 0, summary });

// biome-ignore format: one product per line reads as a table
export const PRODUCTS: Product[] = [
  product("trailblazer-hiking-boots", "Trailblazer Hiking Boots", "Ridgeline", "Footwear", 149.0, 4.6, 812, "Waterproof leather hiking boots with a grippy Vibram sole for rocky trails."),
  product("summit-40l-backpack", "Summit 40L Backpack", "Northpeak", "Packs", 129.5, 4.7, 455, "A 40 litre backpack with a ventilated frame, rain cover and hip-belt pockets."),
  product("aurora-down-jacket", "Aurora Down Jacket", "Northpeak", "Clothing", 219.0, 4.8, 1203, "800-fill goose down jacket that packs into its own pocket, warm to minus ten."),
  product("cascade-rain-shell", "Cascade Rain Shell", "Ridgeline", "Clothing", 179.0, 4.4, 390, "Three-layer waterproof breathable rain jacket with pit zips and a helmet hood."),
  product("ember-camp-stove", "Ember Camp Stove", "Firefly", "Cooking", 59.99, 4.5, 678, "Compact canister stove that boils a litre of water in under four minutes."),
  product("nomad-2-person-tent", "Nomad 2-Person Tent", "Basecamp", "Shelter", 299.0, 4.6, 287, "Freestanding two-person backpacking tent, 1.6 kg, with two doors and vestibules."),
  product("glacier-sleeping-bag", "Glacier Sleeping Bag", "Basecamp", "Sleep", 189.0, 4.3, 140, "Mummy sleeping bag rated to minus five degrees with synthetic insulation."),
  product("lumen-headlamp", "Lumen 400 Headlamp", "Firefly", "Lighting", 39.95, 4.7, 2210, "Rechargeable 400 lumen headlamp with red night mode and a lock-out switch."),
  product("trekker-poles", "Trekker Carbon Poles", "Ridgeline", "Accessories", 99.0, 4.5, 321, "Ultralight carbon trekking poles with cork grips and flick locks."),
  product("hydro-filter-bottle", "Hydro Filter Bottle", "Clearwater", "Water", 44.0, 4.2, 534, "Squeeze bottle with a hollow-fibre filter that removes bacteria and protozoa."),
  product("merino-base-layer", "Merino Base Layer", "Woolpath", "Clothing", 79.0, 4.6, 980, "Odour-resistant merino wool long-sleeve base layer for cold mornings."),
  product("ridge-trail-runners", "Ridge Trail Runners", "Ridgeline", "Footwear", 134.0, 4.4, 615, "Light trail running shoes with a rock plate and a wide toe box."),
];

const article = (
  slug: string,
  title: string,
  author: string,
  date: string,
  summary: string,
  paragraphs: string[],
  related: string[],
): Article => ({ slug, title, author, date, summary, paragraphs, related });

export const ARTICLES: Article[] = [
  article(
    "how-to-choose-hiking-boots",
    "How to Choose Hiking Boots",
    "Maya Lindqvist",
    "2026-03-02",
    "Fit, support and waterproofing: what matters when you buy hiking boots.",
    [
      "Start with fit: your toes should not touch the front on a descent.",
      "Leather boots last longer; synthetic boots break in faster and weigh less.",
      "A waterproof membrane keeps feet dry but runs warmer in summer.",
    ],
    ["trailblazer-hiking-boots", "ridge-trail-runners"],
  ),
  article(
    "packing-list-for-a-weekend-hike",
    "Packing List for a Weekend Hike",
    "Tom Okafor",
    "2026-03-15",
    "Everything you need for two days and one night on the trail.",
    [
      "Carry the ten essentials: navigation, light, sun protection, first aid, knife, fire, shelter, extra food, water and clothes.",
      "A 40 litre pack is enough for a summer overnight trip.",
      "Pack heavy items close to your back and centred between the shoulder blades.",
    ],
    ["summit-40l-backpack", "nomad-2-person-tent"],
  ),
  article(
    "layering-for-cold-weather",
    "Layering for Cold Weather",
    "Maya Lindqvist",
    "2026-01-20",
    "Base, mid and shell layers explained for winter hiking.",
    [
      "A merino base layer moves sweat away from the skin.",
      "A down jacket is the warmest mid layer for its weight when it stays dry.",
      "A rain shell blocks wind and water on top of everything else.",
    ],
    ["merino-base-layer", "aurora-down-jacket", "cascade-rain-shell"],
  ),
  article(
    "backcountry-cooking-basics",
    "Backcountry Cooking Basics",
    "Ines Duarte",
    "2026-02-11",
    "Stoves, fuel and simple recipes for camp meals.",
    [
      "Canister stoves are the simplest choice for three-season trips.",
      "Plan one hot meal per day and pack calorie-dense snacks.",
      "Always cook away from your tent and store food out of reach of animals.",
    ],
    ["ember-camp-stove"],
  ),
  article(
    "water-treatment-on-the-trail",
    "Water Treatment on the Trail",
    "Tom Okafor",
    "2026-04-04",
    "Filters, tablets and boiling compared.",
    [
      "Hollow-fibre filters remove bacteria and protozoa but not viruses.",
      "Chemical tablets are light but take thirty minutes to work.",
      "Boiling is the most reliable method when you have fuel to spare.",
    ],
    ["hydro-filter-bottle"],
  ),
  article(
    "night-hiking-safety",
    "Night Hiking Safety",
    "Ines Duarte",
    "2026-05-09",
    "Headlamps, pacing and navigation after dark.",
    [
      "Bring a headlamp with at least 300 lumens and a spare battery.",
      "Red light mode keeps your night vision for stargazing.",
      "Walk slower than by day and check your bearing at every junction.",
    ],
    ["lumen-headlamp"],
  ),
  article(
    "trekking-poles-worth-it",
    "Are Trekking Poles Worth It?",
    "Maya Lindqvist",
    "2026-05-28",
    "How poles save your knees on steep descents.",
    [
      "Poles take weight off your knees on long descents.",
      "Carbon poles are lighter; aluminium poles survive more abuse.",
      "Adjust them so your elbows are at ninety degrees on flat ground.",
    ],
    ["trekker-poles"],
  ),
  article(
    "choosing-a-sleeping-bag",
    "Choosing a Sleeping Bag",
    "Tom Okafor",
    "2026-06-17",
    "Temperature ratings, fill types and shapes.",
    [
      "The comfort rating matters more than the limit rating.",
      "Synthetic fill keeps some warmth when wet; down is lighter and packs smaller.",
      "A mummy shape is warmer than a rectangular bag of the same fill.",
    ],
    ["glacier-sleeping-bag"],
  ),
  article(
    "trail-running-for-beginners",
    "Trail Running for Beginners",
    "Ines Duarte",
    "2026-07-01",
    "From road to trail: shoes, pacing and technique.",
    [
      "Trail shoes have deeper lugs and often a rock plate.",
      "Walk the steep climbs; everyone does.",
      "Look three steps ahead to choose your footing.",
    ],
    ["ridge-trail-runners"],
  ),
  article(
    "leave-no-trace-principles",
    "Leave No Trace Principles",
    "Maya Lindqvist",
    "2026-07-22",
    "Seven principles for low-impact hiking and camping.",
    [
      "Plan ahead and prepare.",
      "Travel and camp on durable surfaces.",
      "Dispose of waste properly and leave what you find.",
    ],
    ["nomad-2-person-tent"],
  ),
];

const doc = (slug: string, title: string, summary: string, paragraphs: string[]): DocPage => ({
  slug,
  title,
  summary,
  paragraphs,
});

export const DOCS: DocPage[] = [
  doc("getting-started", "Getting Started", "Create an account and place your first order.", [
    "Create an account with your email address.",
    "Add products to the cart and check out with a card or a gift voucher.",
  ]),
  doc("shipping-policy", "Shipping Policy", "Delivery times and costs.", [
    "Orders over 75 dollars ship free within the country.",
    "Standard delivery takes three to five working days.",
  ]),
  doc("returns-and-refunds", "Returns and Refunds", "How to return an item within 30 days.", [
    "Unused items can be returned within 30 days for a full refund.",
    "Refunds reach your card within five working days.",
  ]),
  doc("size-guide", "Size Guide", "Find your size for boots and clothing.", [
    "Measure your foot in the evening, when it is largest.",
    "Clothing follows European sizes; see the table for conversions.",
  ]),
  doc("care-instructions", "Care Instructions", "Keep your gear working for years.", [
    "Wash down jackets with a down-specific detergent.",
    "Re-proof rain shells once a season.",
  ]),
  doc("partner-api", "Partner API", "Stock and price feeds for resellers.", [
    "Partners get a daily feed of stock levels and prices.",
    "Contact partners@acme-outfitters.example for a key.",
  ]),
];
