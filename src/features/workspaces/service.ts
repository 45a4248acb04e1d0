import type { AppDeps } from '../../platform/app-deps.ts';
import { AppError, notFound, validation } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { randomToken } from '../../core/secrets.ts';
import { isValidTimeZone } from '../../core/time.ts';
import type { WorkingHours } from '../../core/slot-engine.ts';
import { hashApiKey } from '../../platform/access/api-key.ts';
import { normalizeDomain } from '../../platform/access/domains.ts';
import {
  UniqueViolation,
  type ApiKeyRecord,
  type CustomFieldPatch,
  type CustomFieldRecord,
  type WorkspacePatch,
  type WorkspaceRecord,
} from '../../ports/storage/index.ts';
import type { CustomFieldCreate, CustomFieldJson, CustomFieldPatchBody, Workspace, WorkspacePatchBody } from './model.ts';

export const API_KEY_PREFIX = 'svc_live_';
const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** Mon–Fri 09:00–17:00, the hours of a new workspace. */
export function defaultHours(): WorkingHours {
  const workday = () => [{ start: '09:00', end: '17:00' }];
  return { weekly: { mon: workday(), tue: workday(), wed: workday(), thu: workday(), fri: workday(), sat: [], sun: [] }, exceptions: [] };
}

export interface NewWorkspace {
  slug: string;
  name: string;
  timezone?: string;
}

export function checkNewWorkspace(input: NewWorkspace): void {
  if (!SLUG_PATTERN.test(input.slug)) {
    throw new AppError('VALIDATION_ERROR', 'slug must be 1-64 lower-case letters, digits or hyphens, not starting or ending with a hyphen');
  }
  if (input.name.trim() === '' || input.name.length > 200) throw new AppError('VALIDATION_ERROR', 'name must be 1 to 200 characters long');
  if (input.timezone !== undefined && !isValidTimeZone(input.timezone)) {
    throw new AppError('VALIDATION_ERROR', `timezone must be an IANA time zone such as Europe/Berlin, got ${input.timezone}`);
  }
}

/** Creates a workspace with the contract's defaults and its first API key, shown only in the result. */
export async function createWorkspace(deps: Pick<AppDeps, 'storage' | 'clock'>, input: NewWorkspace): Promise<{ workspace: WorkspaceRecord; apiKey: string }> {
  checkNewWorkspace(input);
  const now = deps.clock.now();
  const workspace: WorkspaceRecord = {
    id: newId('ws', now),
    slug: input.slug,
    name: input.name.trim(),
    primaryColor: null,
    logoUrl: null,
    notificationEmail: null,
    locale: null,
    contactEmail: null,
    contactPhone: null,
    plan: 'self-hosted',
    industry: 'other',
    timezone: input.timezone ?? 'UTC',
    language: 'en',
    timeFormat: '24h',
    cancellationHours: 24,
    requiresConfirmation: false,
    refundOnCancel: false,
    hours: defaultHours(),
    domains: [],
    createdAt: now,
    updatedAt: now,
  };
  const { key, record } = newApiKey(deps, workspace.id, 'default');
  try {
    await deps.storage.createWorkspace(workspace, record);
  } catch (error) {
    if (error instanceof UniqueViolation) throw new AppError('VALIDATION_ERROR', `a workspace with the slug ${input.slug} already exists`);
    throw error;
  }
  return { workspace, apiKey: key };
}

/** A new API key for the workspace: 32 random bytes behind a recognisable prefix; only its hash is kept. */
export async function createApiKey(deps: Pick<AppDeps, 'storage' | 'clock'>, workspaceId: string, name: string): Promise<string> {
  return (await issueApiKey(deps, workspaceId, name)).key;
}

/** As createApiKey, with the stored record (for listing) beside the key (shown once). */
export async function issueApiKey(deps: Pick<AppDeps, 'storage' | 'clock'>, workspaceId: string, name: string): Promise<{ key: string; record: ApiKeyRecord }> {
  const issued = newApiKey(deps, workspaceId, name);
  await deps.storage.createApiKey(issued.record);
  return issued;
}

/** A new key and the record to store for it (not stored yet). */
function newApiKey(deps: Pick<AppDeps, 'clock'>, workspaceId: string, name: string): { key: string; record: ApiKeyRecord } {
  const key = randomToken(API_KEY_PREFIX, 32);
  const record: ApiKeyRecord = {
    id: newId('key', deps.clock.now()),
    workspaceId,
    name,
    prefix: key.slice(0, API_KEY_PREFIX.length + 6),
    hash: hashApiKey(key),
    createdAt: deps.clock.now(),
    revokedAt: null,
    lastUsedAt: null,
  };
  return { key, record };
}

/** The locale dates and numbers are written in: the workspace's own, else its language. */
export const workspaceLocale = (workspace: Pick<WorkspaceRecord, 'locale' | 'language'>) => workspace.locale ?? workspace.language;

export function toWorkspaceJson(workspace: WorkspaceRecord): Workspace {
  return {
    id: workspace.id,
    name: workspace.name,
    slug: workspace.slug,
    primaryColor: workspace.primaryColor,
    plan: workspace.plan,
    industry: workspace.industry,
    timezone: workspace.timezone,
    language: workspace.language,
    locale: workspaceLocale(workspace),
    contactEmail: workspace.contactEmail,
    contactPhone: workspace.contactPhone,
    timeFormat: workspace.timeFormat,
    cancellationHours: workspace.cancellationHours,
    logoUrl: workspace.logoUrl,
    notificationEmail: workspace.notificationEmail,
    requiresConfirmation: workspace.requiresConfirmation,
    refundOnCancel: workspace.refundOnCancel,
  };
}

export function toCustomFieldJson(field: CustomFieldRecord): CustomFieldJson {
  return {
    id: field.id,
    key: field.key,
    label: field.label,
    type: field.type,
    required: field.required,
    options: field.options,
    placeholder: field.placeholder,
    order: field.order,
    serviceIds: field.serviceIds,
  };
}

// settings

/** Refuses text that is only white space; text is otherwise stored exactly as given. */
export function requireText(field: string, value: string): string {
  if (value.trim() === '') throw validation(`${field} must not be blank`);
  return value;
}

/** An absolute http(s) URL, or a 400 naming `field`. */
function requireHttpUrl(field: string, value: string): string {
  try {
    const url = new URL(value);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && url.hostname) return url.href;
  } catch {
    // not a URL at all
  }
  throw validation(`${field} must be an http(s) URL such as https://example.com/logo.png, got ${value}`);
}

/** The values of `list` without repeats, in first-seen order. */
export function withoutRepeats(list: readonly string[]): string[] {
  return [...new Set(list)];
}

/**
 * Checks that every id of `ids` is in `known`, naming the first that is not:
 * `providerIds[1] must be the id of a provider of this workspace, got prv_x`.
 */
export function requireKnownIds(field: string, what: string, ids: readonly string[], known: ReadonlySet<string>): void {
  const index = ids.findIndex((id) => !known.has(id));
  if (index >= 0) throw validation(`${field}[${index}] must be the id of ${what} of this workspace, got ${ids[index]}`);
}

/** The IANA name as the runtime spells it (`europe/berlin` → `Europe/Berlin`), or a 400 naming `timezone`. */
function canonicalTimeZone(name: string): string {
  if (!isValidTimeZone(name)) throw validation(`timezone must be an IANA time zone such as Europe/Berlin, got ${name}`);
  return Temporal.Now.zonedDateTimeISO(name).timeZoneId;
}

/** The canonical BCP 47 form (`pt-br` → `pt-BR`), or a 400 naming the field (`language`, `locale`). */
function canonicalLanguage(tag: string, field: 'language' | 'locale' = 'language'): string {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    if (canonical) return canonical;
  } catch {
    // a RangeError: not a well-formed tag
  }
  const examples = field === 'locale' ? 'en-GB, en-US or de-DE' : 'en, de or pt-BR';
  throw validation(`${field} must be a BCP 47 ${field === 'locale' ? 'locale' : 'language tag'} such as ${examples}, got ${tag}`);
}

const CONTACT_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A contact address customers see, trimmed; empty = none. */
function contactEmail(value: string): string | null {
  const email = value.trim();
  if (email === '') return null;
  if (!CONTACT_EMAIL.test(email)) throw validation(`contactEmail must be an email address such as hello@example.com, got ${email}`);
  return email;
}

/** A phone number customers see, trimmed; empty = none. Digits, spaces and + ( ) - . / only. */
function contactPhone(value: string): string | null {
  const phone = value.trim();
  if (phone === '') return null;
  if (!/^\+?[0-9 ()\-./]{3,40}$/.test(phone) || !/[0-9]{3}/.test(phone.replace(/\D/g, ''))) {
    throw validation(`contactPhone must be a phone number such as +49 30 1234567, got ${phone}`);
  }
  return phone;
}

/** Applies PATCH /workspaces/{slug}; fields left out keep their values, an empty body changes nothing. */
export async function updateWorkspaceSettings(
  deps: Pick<AppDeps, 'storage' | 'clock'>,
  workspace: WorkspaceRecord,
  body: WorkspacePatchBody,
): Promise<WorkspaceRecord> {
  const patch: WorkspacePatch = {};
  if (body.name !== undefined) patch.name = requireText('name', body.name);
  if (body.primaryColor !== undefined) patch.primaryColor = body.primaryColor;
  if (body.industry !== undefined) patch.industry = requireText('industry', body.industry);
  if (body.timezone !== undefined) patch.timezone = canonicalTimeZone(body.timezone);
  if (body.language !== undefined) patch.language = canonicalLanguage(body.language);
  if (body.locale !== undefined) patch.locale = body.locale === null ? null : canonicalLanguage(body.locale, 'locale');
  if (body.contactEmail !== undefined) patch.contactEmail = body.contactEmail === null ? null : contactEmail(body.contactEmail);
  if (body.contactPhone !== undefined) patch.contactPhone = body.contactPhone === null ? null : contactPhone(body.contactPhone);
  if (body.timeFormat !== undefined) patch.timeFormat = body.timeFormat;
  if (body.cancellationHours !== undefined) patch.cancellationHours = body.cancellationHours;
  if (body.logoUrl !== undefined) patch.logoUrl = body.logoUrl === null ? null : requireHttpUrl('logoUrl', body.logoUrl);
  if (body.requiresConfirmation !== undefined) patch.requiresConfirmation = body.requiresConfirmation;
  if (body.refundOnCancel !== undefined) patch.refundOnCancel = body.refundOnCancel;
  if (body.notificationEmail !== undefined) patch.notificationEmail = body.notificationEmail?.trim() || null;
  if (Object.keys(patch).length === 0) return workspace;
  const updated = await deps.storage.updateWorkspace(workspace.id, patch, deps.clock.now());
  if (!updated) throw notFound(`workspace ${workspace.slug}`);
  return updated;
}

/**
 * Replaces the allowed widget domains: each entry normalised by normalizeDomain (lower case, no trailing
 * dot), repeats dropped. A bad entry is a 400 naming it: `domains[1] must be a domain such as …`.
 */
export async function replaceDomains(deps: Pick<AppDeps, 'storage' | 'clock'>, workspace: WorkspaceRecord, input: readonly string[]): Promise<string[]> {
  const domains = input.map((entry, index) => {
    const domain = normalizeDomain(entry);
    if (!domain) throw validation(`domains[${index}] must be a domain such as example.com or *.example.com`);
    return domain;
  });
  const updated = await deps.storage.updateWorkspace(workspace.id, { domains: withoutRepeats(domains) }, deps.clock.now());
  if (!updated) throw notFound(`workspace ${workspace.slug}`);
  return updated.domains;
}

// custom fields

type FieldShape = Pick<CustomFieldRecord, 'type' | 'options'>;

/** `options`: required and non-empty for select, null otherwise; no choice twice. */
function checkOptions(field: FieldShape): void {
  if (field.type !== 'select') {
    if (field.options !== null) throw validation(`options must be null unless type is select (type is ${field.type})`);
    return;
  }
  if (field.options === null || field.options.length === 0) throw validation('options must list at least one choice when type is select');
  field.options.forEach((option, index) => {
    if (option.trim() === '') throw validation(`options[${index}] must not be blank`);
    if (option.length > 200) throw validation(`options[${index}] must be at most 200 characters long`);
    const first = field.options!.indexOf(option);
    if (first !== index) throw validation(`options[${index}] repeats options[${first}] (${option})`);
  });
}

async function checkFieldServices(deps: Pick<AppDeps, 'storage'>, workspace: WorkspaceRecord, serviceIds: string[]): Promise<string[]> {
  if (serviceIds.length === 0) return [];
  const services = await deps.storage.listServices(workspace.id, { activeOnly: false });
  requireKnownIds('serviceIds', 'a service', serviceIds, new Set(services.map((service) => service.id)));
  return withoutRepeats(serviceIds);
}

const duplicateKey = (key: string) => validation(`a custom field with the key ${key} already exists`);

export async function createCustomField(
  deps: Pick<AppDeps, 'storage' | 'clock'>,
  workspace: WorkspaceRecord,
  body: CustomFieldCreate,
): Promise<CustomFieldRecord> {
  const field: CustomFieldRecord = {
    id: newId('cf', deps.clock.now()),
    workspaceId: workspace.id,
    key: body.key,
    label: requireText('label', body.label),
    type: body.type,
    required: body.required ?? false,
    options: body.options ?? null,
    placeholder: body.placeholder ?? null,
    order: body.order ?? 0,
    serviceIds: [],
    createdAt: deps.clock.now(),
  };
  checkOptions(field);
  field.serviceIds = await checkFieldServices(deps, workspace, body.serviceIds ?? []);
  try {
    await deps.storage.createCustomField(field);
  } catch (error) {
    if (error instanceof UniqueViolation) throw duplicateKey(field.key);
    throw error;
  }
  return field;
}

async function findCustomField(deps: Pick<AppDeps, 'storage'>, workspace: WorkspaceRecord, fieldId: string): Promise<CustomFieldRecord> {
  const field = (await deps.storage.listCustomFields(workspace.id)).find((each) => each.id === fieldId);
  if (!field) throw notFound(`custom field ${fieldId}`);
  return field;
}

/**
 * Applies PATCH …/custom-fields/{fieldId}. Changing `type` away from select without sending `options`
 * drops the old choices; changing it to select needs `options`.
 */
export async function updateCustomField(
  deps: Pick<AppDeps, 'storage'>,
  workspace: WorkspaceRecord,
  fieldId: string,
  body: CustomFieldPatchBody,
): Promise<CustomFieldRecord> {
  if (body.label !== undefined) requireText('label', body.label);
  const current = await findCustomField(deps, workspace, fieldId);
  const type = body.type ?? current.type;
  const options = body.options !== undefined ? body.options : type === 'select' ? current.options : null;
  checkOptions({ type, options });
  const patch: CustomFieldPatch = {};
  if (body.key !== undefined) patch.key = body.key;
  if (body.label !== undefined) patch.label = body.label;
  if (type !== current.type) patch.type = type;
  if (JSON.stringify(options) !== JSON.stringify(current.options)) patch.options = options;
  if (body.required !== undefined) patch.required = body.required;
  if (body.placeholder !== undefined) patch.placeholder = body.placeholder;
  if (body.order !== undefined) patch.order = body.order;
  if (body.serviceIds !== undefined) patch.serviceIds = await checkFieldServices(deps, workspace, body.serviceIds);
  if (Object.keys(patch).length === 0) return current;
  try {
    const updated = await deps.storage.updateCustomField(workspace.id, fieldId, patch);
    if (!updated) throw notFound(`custom field ${fieldId}`);
    return updated;
  } catch (error) {
    if (error instanceof UniqueViolation) throw duplicateKey(body.key ?? current.key);
    throw error;
  }
}

export async function deleteCustomField(deps: Pick<AppDeps, 'storage'>, workspace: WorkspaceRecord, fieldId: string): Promise<void> {
  if (!(await deps.storage.deleteCustomField(workspace.id, fieldId))) throw notFound(`custom field ${fieldId}`);
}
