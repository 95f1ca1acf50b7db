/** The legacy realtime social event: the transformed record, or a raw-looking upstream variant. */
import { hash32, seeded } from "./hash.js";

const NAMES = [
  "Sunrise Trail Run",
  "Community Beach Clean-up",
  "Night Sky Photography Walk",
  "Alpine Gear Swap",
  "Riverside Jazz Picnic",
];
const PLACES = [
  { name: "Boulder Creek Park", latitude: 40.015, longitude: -105.2705, timezone: "America/Denver" },
  { name: "Lisbon Riverside", latitude: 38.7071, longitude: -9.1355, timezone: "Europe/Lisbon" },
  { name: "Tempelhofer Feld", latitude: 52.4731, longitude: 13.4015, timezone: "Europe/Berlin" },
];

const person = (id: string, name: string) => ({
  id,
  name,
  profile_picture: `https://social.example.com/p/${id}.jpg`,
});

export function socialEvent(platform: string, eventId: string, now = Date.now()) {
  const random = seeded(`${platform}|${eventId}`);
  const place = PLACES[hash32(eventId) % PLACES.length];
  const name = NAMES[hash32(`${eventId}|name`) % NAMES.length];
  const start = Math.floor(Date.UTC(2026, 5, 1) / 1000) + Math.floor(random() * 200) * 86_400;
  const end = start + 3 * 3600;
  const creator = person(`u${hash32(`${eventId}|creator`) % 100000}`, "Acme Outfitters");
  return {
    id: eventId,
    name,
    url: `https://${platform}.example.com/events/${eventId}`,
    description: `${name} at ${place.name}. Bring water and a smile.`,
    privacy: "PUBLIC",
    timezone: place.timezone,
    photo: `https://${platform}.example.com/events/${eventId}/cover.jpg`,
    buy_ticket_url: `https://tickets.example.com/${eventId}`,
    start_timestamp: start,
    end_timestamp: end,
    place: {
      id: `pl${hash32(place.name) % 100000}`,
      name: place.name,
      location: { latitude: place.latitude, longitude: place.longitude, timezone: place.timezone },
    },
    is_canceled: false,
    has_child_events: false,
    is_all_day: false,
    is_past: end * 1000 < now,
    is_recurring: null,
    child_events: [],
    discovery_categories: ["Outdoors", "Community"],
    faq: [{ question: "Is it free?", answer: "Yes." }],
    creator,
    hosts: [creator, person(`u${hash32(`${eventId}|host`) % 100000}`, "Trail Friends")],
    total_going_guests: 10 + Math.floor(random() * 400),
    total_interested_guests: 50 + Math.floor(random() * 2000),
  };
}

/** What the platform itself answers before transformation: different names, nested, strings. */
export function rawSocialEvent(platform: string, eventId: string) {
  const e = socialEvent(platform, eventId);
  return {
    data: {
      event: {
        eventID: e.id,
        eventName: e.name,
        eventURL: e.url,
        eventDescription: { text: e.description },
        startTimestamp: String(e.start_timestamp),
        endTimestamp: String(e.end_timestamp),
        eventPlace: { placeID: e.place.id, placeName: e.place.name, geo: e.place.location },
        isCanceled: e.is_canceled,
        goingGuestCount: { count: e.total_going_guests },
        interestedGuestCount: { count: e.total_interested_guests },
        eventCreator: e.creator,
      },
    },
    extensions: { is_final: true },
  };
}
