/**
 * Fair assignment (docs/contract/classes.md, "Fair assignment"): which provider gets a booking made without a
 * `providerId`, among those free at the time. The reservation tries the candidates in this order and the first
 * free one gets it, so the order is the rule.
 */

/** What the rule knows of one provider. */
export interface ProviderLoad {
  id: string;
  /** PENDING + CONFIRMED bookings starting on the booking's day (workspace zone) */
  dayLoad: number;
  /** epoch ms: when the provider's most recent booking was made (createdAt, any status); null: never booked */
  lastBookedAt: number | null;
}

/**
 * Pure: fewest bookings on the day first; among equals, the one whose last booking was made longest ago (never
 * booked before all); then by id, so the order is total and the same on every instance.
 */
export function rankByFairness(providers: readonly ProviderLoad[]): string[] {
  return [...providers]
    .sort(
      (a, b) =>
        a.dayLoad - b.dayLoad
        || (a.lastBookedAt ?? Number.NEGATIVE_INFINITY) - (b.lastBookedAt ?? Number.NEGATIVE_INFINITY)
        || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .map((provider) => provider.id);
}
