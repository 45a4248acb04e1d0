import type { AppDeps } from '../../platform/app-deps.ts';
import { DEMO_SLUG } from '../workspaces/index.ts';
import { newId } from '../../core/ids.ts';
import { UniqueViolation, type BookingRecord, type ProviderRecord, type ServiceRecord, type WorkspaceRecord } from '../../ports/storage/index.ts';
import { defaultHours } from '../workspaces/index.ts';

const DEMO_TIMEZONE = 'Europe/Berlin';

type DemoService = Pick<
  ServiceRecord,
  'name' | 'description' | 'duration' | 'priceMinor' | 'depositMinor' | 'category' | 'capacity' | 'bufferTime' | 'minNotice' | 'maxAdvance'
>;

const SERVICES: DemoService[] = [
  {
    name: 'Haircut',
    description: 'Wash, cut and style.',
    duration: 30,
    priceMinor: 3500,
    depositMinor: null,
    category: 'Hair',
    capacity: 1,
    bufferTime: 10,
    minNotice: 60,
    maxAdvance: 60,
  },
  {
    name: 'Colour & cut',
    description: 'Full colour with a cut and blow-dry.',
    duration: 90,
    priceMinor: 8900,
    depositMinor: 2000,
    category: 'Hair',
    capacity: 1,
    bufferTime: 15,
    minNotice: 120,
    maxAdvance: 90,
  },
  {
    name: 'Free consultation',
    description: 'Fifteen minutes to plan your next look.',
    duration: 15,
    priceMinor: 0,
    depositMinor: null,
    category: 'Advice',
    capacity: 1,
    bufferTime: 0,
    minNotice: 30,
    maxAdvance: 30,
  },
  {
    name: 'Beginners yoga class',
    description: 'A relaxed group class; mats provided.',
    duration: 60,
    priceMinor: 1500,
    depositMinor: null,
    category: 'Classes',
    capacity: 8,
    bufferTime: 0,
    minNotice: 0,
    maxAdvance: 30,
  },
];

const CUSTOMERS = [
  ['Mia Schneider', 'mia.schneider@example.com'],
  ['Jonas Weber', 'jonas.weber@example.com'],
  ['Lea Fischer', 'lea.fischer@example.com'],
  ['Noah Becker', 'noah.becker@example.com'],
  ['Emma Wagner', 'emma.wagner@example.com'],
] as const;

/** Working days from `today` on (Mon–Fri), in the demo's zone. */
function nextWorkdays(today: Temporal.PlainDate, count: number): Temporal.PlainDate[] {
  const days: Temporal.PlainDate[] = [];
  for (let day = today; days.length < count; day = day.add({ days: 1 })) if (day.dayOfWeek <= 5) days.push(day);
  return days;
}

function at(day: Temporal.PlainDate, time: string): number {
  return day.toZonedDateTime({ timeZone: DEMO_TIMEZONE, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds;
}

/** How long a seed may take before a demo workspace without its completion mark counts as abandoned. */
const SEED_GRACE_MS = 60_000;
const seededMark = (workspaceId: string) => `demo_seeded:${workspaceId}`;

/**
 * A demo workspace whose seeding never finished (the process died half-way): no completion mark, and older
 * than any seed takes, so no other instance is still filling it.
 */
async function leftHalfSeeded(deps: Pick<AppDeps, 'storage' | 'clock'>, workspace: WorkspaceRecord): Promise<boolean> {
  if (await deps.storage.getSetting(seededMark(workspace.id))) return false;
  return deps.clock.now() - workspace.createdAt > SEED_GRACE_MS;
}

/**
 * The `demo` workspace with realistic sample data: a hair salon with four services, two stylists and a handful
 * of bookings around today. Does nothing when it exists already, unless its seeding was cut off half-way;
 * `reset` replaces it (the daily reset).
 */
export async function ensureDemoWorkspace(deps: Pick<AppDeps, 'storage' | 'clock'>, options: { reset?: boolean } = {}): Promise<boolean> {
  const existing = await deps.storage.getWorkspaceBySlug(DEMO_SLUG);
  if (existing && !options.reset && !(await leftHalfSeeded(deps, existing))) return false;
  if (existing) await deps.storage.deleteWorkspace(existing.id);
  const now = deps.clock.now();
  const workspace: WorkspaceRecord = {
    id: newId('ws', now),
    slug: DEMO_SLUG,
    name: 'Demo Hair & Wellness',
    primaryColor: '#0f766e',
    logoUrl: null,
    notificationEmail: null,
    locale: null,
    contactEmail: null,
    contactPhone: null,
    plan: 'demo',
    industry: 'beauty',
    timezone: DEMO_TIMEZONE,
    language: 'en',
    timeFormat: '24h',
    cancellationHours: 24,
    requiresConfirmation: false,
    refundOnCancel: false,
    hours: { ...defaultHours(), weekly: { ...defaultHours().weekly, sat: [{ start: '10:00', end: '14:00' }] } },
    domains: [],
    createdAt: now,
    updatedAt: now,
  };
  try {
    await deps.storage.createWorkspace(workspace);
  } catch (error) {
    // Another instance starting at the same time on the same database seeded it first.
    if (error instanceof UniqueViolation) return false;
    throw error;
  }

  const split = [
    { start: '09:00', end: '12:30' },
    { start: '13:30', end: '18:00' },
  ];
  const providers: ProviderRecord[] = [
    {
      name: 'Alex Hoffmann',
      email: 'alex@demo.example',
      hours: { weekly: { mon: split, tue: split, wed: split, thu: split, fri: split, sat: [], sun: [] }, exceptions: [] },
    },
    { name: 'Sam Richter', email: 'sam@demo.example', hours: null },
  ].map((provider) => ({ ...provider, id: newId('prv', now), workspaceId: workspace.id, active: true, serviceIds: [], createdAt: now, updatedAt: now }));
  for (const provider of providers) await deps.storage.createProvider(provider);

  const services: ServiceRecord[] = SERVICES.map((service, index) => ({
    ...service,
    id: newId('srv', now),
    workspaceId: workspace.id,
    currency: 'EUR',
    active: true,
    order: index,
    slotInterval: null,
    // the class keeps a waiting list, so the demo shows full times and joining one
    waitlist: service.capacity > 1,
    providerIds: service.capacity > 1 ? [providers[1]!.id] : providers.map((provider) => provider.id),
    createdAt: now,
    updatedAt: now,
  }));
  for (const service of services) await deps.storage.createService(service);

  const today = Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(DEMO_TIMEZONE).toPlainDate();
  const days = nextWorkdays(today.add({ days: 1 }), 5);
  const [haircut, colour, consultation, yoga] = services as [ServiceRecord, ServiceRecord, ServiceRecord, ServiceRecord];
  const [alex, sam] = providers as [ProviderRecord, ProviderRecord];
  const plan: [ServiceRecord, ProviderRecord, Temporal.PlainDate, string, BookingRecord['status']][] = [
    [haircut, alex, days[0]!, '10:00', 'CONFIRMED'],
    [colour, sam, days[0]!, '14:00', 'CONFIRMED'],
    [consultation, alex, days[1]!, '09:00', 'PENDING'],
    [yoga, sam, days[2]!, '16:00', 'CONFIRMED'],
    [yoga, sam, days[2]!, '16:00', 'CONFIRMED'],
    [haircut, sam, days[3]!, '11:00', 'CANCELLED'],
    [haircut, alex, today.subtract({ days: 7 }), '15:00', 'COMPLETED'],
  ];
  for (const [index, [service, provider, day, time, status]] of plan.entries()) {
    const [customerName, customerEmail] = CUSTOMERS[index % CUSTOMERS.length]!;
    const startTime = at(day, time);
    const booking: BookingRecord = {
      id: newId('bk', now),
      workspaceId: workspace.id,
      serviceId: service.id,
      providerId: provider.id,
      status,
      startTime,
      endTime: startTime + service.duration * 60_000,
      bufferTime: service.bufferTime,
      customerName,
      customerEmail,
      phone: null,
      notes: null,
      customFields: {},
      amountMinor: service.priceMinor > 0 ? service.priceMinor : null,
      currency: service.currency,
      cancelReason: status === 'CANCELLED' ? 'Customer rescheduled by phone' : null,
      holdExpiresAt: null,
      createdAt: now,
      updatedAt: now,
      revision: 0,
      manageTokenHash: null,
      manageTokenSealed: null,
      priceMinor: null,
      paidMinor: 0,
      refundedMinor: 0,
    };
    await deps.storage.reserveBooking({ booking, candidates: [provider.id], margin: 0, fits: () => null, emit: () => [] });
  }
  await deps.storage.putSettingIfAbsent(seededMark(workspace.id), new Date(now).toISOString());
  return true;
}
