import { workdayAt } from '../webhooks/support.ts';

/** One call of svc's API under /api/v1/workspaces/{slug}; throws on any status but 200/201, with the body. */
export async function call(baseUrl: string, method: string, path: string, options: { key?: string; body?: unknown; slug?: string } = {}) {
  const response = await fetch(`${baseUrl}/api/v1/workspaces/${options.slug ?? 'acme'}${path}`, {
    method,
    headers: { ...(options.key ? { 'x-svc-api-key': options.key } : {}), ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body = (await response.json()) as any;
  if (response.status !== 200 && response.status !== 201) throw new Error(`${method} ${path} -> ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** A provider and a 30-minute service through the API; returns both. */
export async function createCatalogue(baseUrl: string, key: string) {
  const provider = (await call(baseUrl, 'POST', '/providers', { key, body: { name: 'Robin Provider' } })).provider;
  const service = (
    await call(baseUrl, 'POST', '/services', { key, body: { name: 'Massage', duration: 30, price: 40, currency: 'EUR', providerIds: [provider.id] } })
  ).service;
  return { provider, service };
}

/**
 * The start of the `index`th half-hour slot (0–15, from 09:00 Europe/Berlin, inside a new workspace's hours) on
 * the workday `daysAhead` days ahead, as the API takes it.
 */
export function slotAt(index: number, daysAhead = 2): string {
  if (index < 0 || index > 15) throw new Error(`slot ${index}: a workday has 16 half-hour slots`);
  const minutes = 9 * 60 + 30 * index;
  const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  return workdayAt(Date.now(), time, daysAhead);
}
