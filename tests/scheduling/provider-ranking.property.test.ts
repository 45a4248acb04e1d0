import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { rankByFairness, type ProviderLoad } from '../../src/core/provider-ranking.ts';

const SEED = 20261126;
const RUNS = 500;

const loads = fc
  .uniqueArray(fc.stringMatching(/^prv_[a-z0-9]{1,6}$/), { minLength: 1, maxLength: 8 })
  .chain((ids) =>
    fc.tuple(
      ...ids.map((id) =>
        fc.record({ id: fc.constant(id), dayLoad: fc.integer({ min: 0, max: 4 }), lastBookedAt: fc.option(fc.integer({ min: 0, max: 10 }), { nil: null }) }),
      ),
    ),
  );

describe('fair assignment order (core/provider-ranking.ts)', () => {
  test('the first provider has the fewest bookings that day, and among those the oldest last booking', () => {
    fc.assert(
      fc.property(loads, (providers: ProviderLoad[]) => {
        const order = rankByFairness(providers);
        const first = providers.find((provider) => provider.id === order[0])!;
        const fewest = Math.min(...providers.map((provider) => provider.dayLoad));
        expect(first.dayLoad).toBe(fewest);
        const tied = providers.filter((provider) => provider.dayLoad === fewest);
        const oldest = Math.min(...tied.map((provider) => provider.lastBookedAt ?? Number.NEGATIVE_INFINITY));
        expect(first.lastBookedAt ?? Number.NEGATIVE_INFINITY).toBe(oldest);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('the order is a permutation, sorted by (day load, last booking, id), whatever the input order', () => {
    fc.assert(
      fc.property(loads, fc.func(fc.integer()), (providers, shuffleKey) => {
        const order = rankByFairness(providers);
        expect([...order].sort()).toEqual(providers.map((provider) => provider.id).sort());
        const shuffled = [...providers].sort((a, b) => shuffleKey(a.id) - shuffleKey(b.id));
        expect(rankByFairness(shuffled)).toEqual(order);
        const byId = new Map(providers.map((provider) => [provider.id, provider]));
        for (let i = 1; i < order.length; i++) {
          const a = byId.get(order[i - 1]!)!;
          const b = byId.get(order[i]!)!;
          const key = (p: ProviderLoad) => [p.dayLoad, p.lastBookedAt ?? Number.NEGATIVE_INFINITY] as const;
          const [la, ta] = key(a);
          const [lb, tb] = key(b);
          expect(la < lb || (la === lb && (ta < tb || (ta === tb && a.id < b.id)))).toBe(true);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  test('examples: a provider never booked wins a tie; a busier day loses whatever its history', () => {
    expect(
      rankByFairness([
        { id: 'prv_a', dayLoad: 1, lastBookedAt: 5 },
        { id: 'prv_b', dayLoad: 1, lastBookedAt: null },
        { id: 'prv_c', dayLoad: 2, lastBookedAt: null },
        { id: 'prv_d', dayLoad: 1, lastBookedAt: 3 },
      ]),
    ).toEqual(['prv_b', 'prv_d', 'prv_a', 'prv_c']);
  });
});
