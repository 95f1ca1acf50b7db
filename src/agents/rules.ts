/**
 * The `rules` strings of an agent's `input_properties` ("min_length:3", "max_length:200",
 * "pattern:^https?://", "min:1", "max:100", "one_of:a|b|c", ...). The spec only says rules are
 * strings "such as a minimum length", so parsing is tolerant: a few spellings of each rule are
 * accepted, and a rule we do not understand is kept as a note instead of failing.
 */

export interface ParsedRules {
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  pattern?: string;
  oneOf?: string[];
  format?: "url" | "email";
  minItems?: number;
  maxItems?: number;
  /** Rules that were not understood (or were malformed); they constrain nothing. */
  unknown: string[];
}

const ALIASES: Record<string, keyof Omit<ParsedRules, "unknown">> = {
  min_length: "minLength",
  minlength: "minLength",
  min_len: "minLength",
  max_length: "maxLength",
  maxlength: "maxLength",
  max_len: "maxLength",
  min: "min",
  minimum: "min",
  gte: "min",
  max: "max",
  maximum: "max",
  lte: "max",
  pattern: "pattern",
  regex: "pattern",
  one_of: "oneOf",
  oneof: "oneOf",
  enum: "oneOf",
  in: "oneOf",
  format: "format",
  min_items: "minItems",
  max_items: "maxItems",
};

/** Rules with no argument that we understand. */
const FLAGS: Record<string, (r: ParsedRules) => void> = {
  required: () => {},
  not_empty: (r) => {
    r.minLength = Math.max(r.minLength ?? 0, 1);
  },
  non_empty: (r) => {
    r.minLength = Math.max(r.minLength ?? 0, 1);
  },
  url: (r) => {
    r.format = "url";
  },
  is_url: (r) => {
    r.format = "url";
  },
  email: (r) => {
    r.format = "email";
  },
};

const NUMERIC = new Set(["minLength", "maxLength", "min", "max", "minItems", "maxItems"]);

export function parseRules(rules: readonly unknown[] | null | undefined): ParsedRules {
  const out: ParsedRules = { unknown: [] };
  for (const raw of rules ?? []) {
    if (typeof raw !== "string") {
      out.unknown.push(JSON.stringify(raw));
      continue;
    }
    const rule = raw.trim();
    const sep = rule.search(/[:=]/);
    const key = (sep < 0 ? rule : rule.slice(0, sep))
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, "_");
    const arg = sep < 0 ? undefined : rule.slice(sep + 1).trim();
    if (arg === undefined) {
      const flag = FLAGS[key];
      if (flag) flag(out);
      else out.unknown.push(rule);
      continue;
    }
    const field = ALIASES[key];
    if (!field || !applyRule(out, field, arg)) out.unknown.push(rule);
  }
  return out;
}

function applyRule(out: ParsedRules, field: keyof Omit<ParsedRules, "unknown">, arg: string): boolean {
  if (NUMERIC.has(field)) {
    const n = Number(arg);
    if (arg === "" || !Number.isFinite(n)) return false;
    Object.assign(out, { [field]: n });
    return true;
  }
  if (field === "pattern") {
    try {
      new RegExp(arg);
    } catch {
      return false;
    }
    out.pattern = arg;
    return true;
  }
  if (field === "oneOf") {
    const values = arg
      .split(/[|,]/)
      .map((v) => v.trim())
      .filter((v) => v !== "");
    if (values.length === 0) return false;
    out.oneOf = values;
    return true;
  }
  if (field === "format") {
    const f = arg.toLowerCase();
    if (f === "uri" || f === "url") out.format = "url";
    else if (f === "email") out.format = "email";
    else return false;
    return true;
  }
  return false;
}
