/** Token bucket per API key: `limit` tokens per second, bursts up to `limit`. */

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds when the bucket is full again (allowed) or holds a token again (refused). */
  reset: number;
  /** Whole seconds to wait before a token is available; only when refused. */
  retryAfter: number;
}

const MAX_KEYS = 10_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private limit: number) {}

  setLimit(limit: number): void {
    this.limit = limit;
  }

  take(key: string, now = Date.now()): RateDecision {
    const limit = this.limit;
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= MAX_KEYS) this.buckets.clear();
      bucket = { tokens: limit, updatedAt: now };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(limit, bucket.tokens + ((now - bucket.updatedAt) / 1000) * limit);
    bucket.updatedAt = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      const msToFull = ((limit - bucket.tokens) / limit) * 1000;
      return {
        allowed: true,
        limit,
        remaining: Math.floor(bucket.tokens),
        reset: Math.ceil((now + msToFull) / 1000),
        retryAfter: 0,
      };
    }
    const msToToken = ((1 - bucket.tokens) / limit) * 1000;
    return {
      allowed: false,
      limit,
      remaining: 0,
      reset: Math.ceil((now + msToToken) / 1000),
      retryAfter: Math.max(1, Math.ceil(msToToken / 1000)),
    };
  }
}
