import type { BrowserEnv } from './browser-env.ts';

/** Calls svc's API as acme's backend (with the key). */
export async function acmeApi<T = any>(env: BrowserEnv, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${env.appUrl}/api/v1/workspaces/acme${path}`, {
    method,
    headers: { 'x-svc-api-key': env.apiKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as T & { success: boolean };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

export interface Catalogue {
  consultationId: string;
  haircutId: string;
  colourId: string;
  alexId: string;
  samId: string;
}

/**
 * Acme's catalogue for browser tests: two stylists, a haircut (30 min, 35 EUR, free to book without payment
 * provider) and a colour (90 min, 89 EUR with a 20 EUR deposit), a free consultation (15 min), a required `allergies` text field and an
 * optional `first_visit` checkbox; hours Mon–Sat 09:00–17:00 and Sunday 09:00–12:00 (so DST Sundays have times).
 */
export async function seedCatalogue(env: BrowserEnv): Promise<Catalogue> {
  const alex = await acmeApi(env, 'POST', '/providers', { name: 'Alex Hoffmann' });
  const sam = await acmeApi(env, 'POST', '/providers', { name: 'Sam Richter' });
  const providerIds = [alex.provider.id, sam.provider.id];
  const haircut = await acmeApi(env, 'POST', '/services', {
    name: 'Haircut',
    description: 'Wash, cut and style.',
    duration: 30,
    price: 35,
    currency: 'EUR',
    providerIds,
  });
  const colour = await acmeApi(env, 'POST', '/services', {
    name: 'Colour & cut',
    description: 'Full colour with a cut.',
    duration: 90,
    price: 89,
    deposit: 20,
    currency: 'EUR',
    providerIds,
    order: 1,
  });
  const consultation = await acmeApi(env, 'POST', '/services', {
    name: 'Consultation',
    description: 'Free, fifteen minutes.',
    duration: 15,
    price: 0,
    currency: 'EUR',
    providerIds,
    order: 2,
  });
  await acmeApi(env, 'POST', '/custom-fields', { key: 'allergies', label: 'Allergies', type: 'text', required: true, order: 1 });
  await acmeApi(env, 'POST', '/custom-fields', { key: 'first_visit', label: 'This is my first visit', type: 'checkbox', required: false, order: 2 });
  const day = [{ start: '09:00', end: '17:00' }];
  await acmeApi(env, 'PUT', '/schedule', {
    weekly: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: [{ start: '09:00', end: '12:00' }] },
    exceptions: [],
  });
  await acmeApi(env, 'PATCH', '', { primaryColor: '#0f766e' });
  return {
    consultationId: consultation.service.id,
    haircutId: haircut.service.id,
    colourId: colour.service.id,
    alexId: alex.provider.id,
    samId: sam.provider.id,
  };
}

/** Books `date` by phone on every provider of the consultation, so no one is left for the widget's visitor there (one may already hold an earlier test's booking: that 409 is fine). */
export async function takeTimeOnEveryProvider(env: BrowserEnv, catalogue: Catalogue, date: string): Promise<void> {
  for (const providerId of [catalogue.alexId, catalogue.samId]) {
    await acmeApi(env, 'POST', '/bookings', {
      serviceId: catalogue.consultationId,
      providerId,
      email: 'phone@example.com',
      name: 'By phone',
      date,
      customFields: { allergies: 'none' },
    }).catch((error: Error) => {
      if (!error.message.includes(': 409 ')) throw error;
    });
  }
}
