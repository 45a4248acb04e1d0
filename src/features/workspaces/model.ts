import { Type } from '@sinclair/typebox';
import { t } from 'elysia';
import { createBody, nullable } from '../../core/models.ts';
import { CUSTOM_FIELD_TYPES } from '../../ports/storage/index.ts';

/*
 * Integers use TypeBox's plain `Type.Integer`: Elysia's `t.Integer` is a union with numeric strings, which
 * documents as `anyOf` and whose errors read `expected union value` instead of `must be an integer between …`.
 */

export const Workspace = t.Object(
  {
    id: t.String(),
    name: t.String(),
    slug: t.String(),
    primaryColor: t.Union([t.String(), t.Null()]),
    logoUrl: t.Union([t.String(), t.Null()], { description: 'the logo shown in the admin panel; null = none' }),
    notificationEmail: t.Union([t.String(), t.Null()], {
      description: "where the owner is mailed about each new booking and each customer's cancel or reschedule (when mail is configured); null = not mailed",
    }),
    plan: t.String(),
    industry: t.String(),
    timezone: t.String({ description: 'IANA time zone' }),
    language: t.String({ description: 'BCP 47 language tag' }),
    locale: t.String({ description: 'BCP 47 locale that dates and numbers are written in, such as en-GB or de-DE; the language when none is set' }),
    contactEmail: t.Union([t.String(), t.Null()], { description: 'how customers reach the business by email; shown to them' }),
    contactPhone: t.Union([t.String(), t.Null()], { description: 'how customers reach the business by phone; shown to them' }),
    timeFormat: t.String({ description: '24h or 12h' }),
    cancellationHours: t.Number({ description: 'hours' }),
    requiresConfirmation: t.Boolean({ description: 'keyless bookings of free services stay PENDING until confirmed' }),
    refundOnCancel: t.Boolean({ description: "true: a customer's own cancel through the manage link, in time, refunds what was paid" }),
  },
  { $id: 'Workspace' },
);
export type Workspace = typeof Workspace.static;

export const WorkspaceResponse = t.Object({ success: t.Boolean(), workspace: Workspace }, { $id: 'WorkspaceResponse', description: 'The workspace' });

/** PATCH /workspaces/{slug}: every field optional; an empty body changes nothing. */
export const WorkspacePatchBody = t.Object(
  {
    name: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
    primaryColor: t.Optional(nullable(t.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'a colour as #rrggbb' }))),
    industry: t.Optional(t.String({ minLength: 1, maxLength: 100, description: 'free text, such as beauty or other' })),
    timezone: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'an IANA time zone, such as Europe/Berlin' })),
    language: t.Optional(t.String({ minLength: 1, maxLength: 35, description: 'a BCP 47 language tag, such as en, de or pt-BR' })),
    locale: t.Optional(
      nullable(t.String({ minLength: 1, maxLength: 35, description: 'a BCP 47 locale for dates and numbers, such as en-GB or de-DE; null = the language' })),
    ),
    contactEmail: t.Optional(nullable(t.String({ maxLength: 254, description: 'an email address customers may write to; null = none' }))),
    contactPhone: t.Optional(nullable(t.String({ maxLength: 40, description: 'a phone number customers may call; null = none' }))),
    timeFormat: t.Optional(t.Union([t.Literal('24h'), t.Literal('12h')])),
    cancellationHours: t.Optional(
      Type.Integer({ minimum: 0, maximum: 8760, description: 'hours before the start within which a customer may no longer cancel' }),
    ),
    logoUrl: t.Optional(
      nullable(
        t.String({
          maxLength: 2000,
          pattern: '^https?://',
          description:
            'an http(s) URL of an image; the panel shows https images, and the widget loads it from wherever it points (its one request to another origin beside a configured captcha)',
        }),
      ),
    ),
    requiresConfirmation: t.Optional(t.Boolean({ description: 'true: a keyless booking of a free service is PENDING until confirmed' })),
    refundOnCancel: t.Optional(
      t.Boolean({ description: "true: a customer's own cancel through the manage link, in time, refunds what was paid (default false)" }),
    ),
    notificationEmail: t.Optional(nullable(t.String({ format: 'email', maxLength: 254, description: "the owner's address for booking news; null = none" }))),
  },
  { $id: 'WorkspacePatch' },
);
export type WorkspacePatchBody = typeof WorkspacePatchBody.static;

/** Allowed widget domains (docs/contract/widget.md). */
export const MAX_DOMAINS = 100;

export const DomainsBody = t.Object(
  {
    domains: t.Array(t.String({ maxLength: 1000 }), {
      maxItems: MAX_DOMAINS,
      description: 'host names such as example.com, or *.example.org for every subdomain of example.org',
    }),
  },
  { $id: 'Domains' },
);

export const DomainsResponse = t.Object(
  { success: t.Boolean(), domains: t.Array(t.String()) },
  { $id: 'DomainsResponse', description: 'The allowed widget domains' },
);

export const CustomFieldJson = t.Object(
  {
    id: t.String(),
    key: t.String(),
    label: t.String(),
    type: t.String({ description: CUSTOM_FIELD_TYPES.join(', ') }),
    required: t.Boolean(),
    options: t.Union([t.Array(t.String()), t.Null()], { description: 'the choices of a select field; null for other types' }),
    placeholder: t.Union([t.String(), t.Null()]),
    order: Type.Integer(),
    serviceIds: t.Array(t.String(), { description: 'services whose booking form shows the field; empty = every service' }),
  },
  { $id: 'CustomField' },
);
export type CustomFieldJson = typeof CustomFieldJson.static;

const customFieldFields = {
  key: t.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9_]+$', description: 'lower-case letters, digits and underscores, such as allergies' }),
  label: t.String({ minLength: 1, maxLength: 200 }),
  type: t.Union(CUSTOM_FIELD_TYPES.map((type) => t.Literal(type))),
  required: t.Boolean(),
  // choices are checked in code (1-200 characters each): errors inside a nullable array would read as the array's
  options: nullable(
    t.Array(t.String(), { maxItems: 100, description: 'the choices (1-200 characters each); required and non-empty for select, null otherwise' }),
  ),
  placeholder: nullable(t.String({ maxLength: 200 })),
  order: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 }),
  serviceIds: t.Array(t.String({ maxLength: 64 }), { maxItems: 100, description: 'ids of services of the workspace; empty = every service' }),
};

export const CustomFieldCreate = createBody(customFieldFields, ['key', 'label', 'type'], { $id: 'CustomFieldCreate' });
export type CustomFieldCreate = typeof CustomFieldCreate.static;

/** Every field of CustomFieldCreate, each optional: a PATCH changes only what it names. */
export const CustomFieldPatchBody = t.Partial(CustomFieldCreate, { $id: 'CustomFieldPatch' });
export type CustomFieldPatchBody = typeof CustomFieldPatchBody.static;

export const CustomFieldResponse = t.Object(
  { success: t.Boolean(), customField: CustomFieldJson },
  { $id: 'CustomFieldResponse', description: 'The custom field' },
);
export const CustomFieldsResponse = t.Object(
  { success: t.Boolean(), customFields: t.Array(CustomFieldJson) },
  { $id: 'CustomFieldsResponse', description: 'The custom fields' },
);

export const CustomFieldParams = t.Object({
  slug: t.String({ description: 'workspace slug' }),
  fieldId: t.String({ description: 'custom field id (cf_…)' }),
});

/** Answer of a DELETE that removes something. */
export const DeletedResponse = t.Object({ success: t.Boolean() }, { $id: 'DeletedResponse', description: 'Removed' });

export const WidgetService = t.Object(
  {
    id: t.String(),
    name: t.String(),
    description: t.Union([t.String(), t.Null()]),
    duration: t.Number({ description: 'minutes' }),
    price: t.Number({ description: 'decimal major units of currency, e.g. 35.5' }),
    currency: t.String({ description: 'ISO 4217, upper case' }),
    depositAmount: t.Union([t.Number(), t.Null()], { description: 'the part due at booking, decimal major units; null when the whole price is due' }),
    providerIds: t.Array(t.String(), { description: 'the active providers offering it' }),
    repeatable: t.Boolean({ description: 'the widget offers "Repeat weekly" for it (a series through createBooking `repeat`)' }),
  },
  { $id: 'WidgetService', description: 'A service as the widget shows it' },
);

export const WidgetConfigResponse = t.Object(
  {
    success: t.Boolean(),
    workspace: t.Object({
      id: t.String(),
      name: t.String(),
      primaryColor: t.Union([t.String(), t.Null()]),
      slug: t.String(),
      timezone: t.String({ description: 'IANA time zone; the days and times of availability are in it' }),
      language: t.String({ description: 'BCP 47 language tag' }),
      locale: t.String({ description: 'BCP 47 locale days and amounts are written in, such as en-GB; the language when none is set' }),
      timeFormat: t.String({ description: '24h or 12h' }),
      currency: t.String({ description: 'ISO 4217: the currency of the first active service (EUR when there is none)' }),
      logoUrl: t.Union([t.String(), t.Null()], {
        description:
          "the workspace's logo; the widget shows it from wherever it points, its one request to another origin beside a configured captcha; null = none",
      }),
    }),
    customFields: t.Array(CustomFieldJson),
    services: t.Array(WidgetService, { description: 'the active services, ordered by order then name' }),
    providers: t.Array(t.Object({ id: t.String(), name: t.String() }), { description: 'the active providers of those services, by name' }),
    booking: t.Object({
      allowed: t.Boolean({
        description: "whether a keyless createBooking from the request's Origin would pass the domain check (true without an Origin header)",
      }),
      captcha: t.Union(
        [t.Object({ provider: t.Union([t.Literal('recaptcha'), t.Literal('turnstile'), t.Literal('hcaptcha')]), siteKey: t.String() }), t.Null()],
        { description: 'the captcha a keyless booking needs (SVC_CAPTCHA_PROVIDER, SVC_CAPTCHA_SITE_KEY); null when none' },
      ),
      onlinePayment: t.Boolean({
        description: 'whether a price or deposit is collected online when booking (SVC_PAYMENTS is not none); false: everything is paid at the appointment',
      }),
    }),
  },
  { $id: 'WidgetConfigResponse', description: 'What the booking widget needs' },
);
