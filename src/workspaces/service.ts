import type { AppDeps } from '../deps.ts';
import { AppError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { randomToken, sha256Hex } from '../shared/secrets.ts';
import { isValidTimeZone } from '../shared/time.ts';
import type { WorkingHours } from '../scheduling/slot-engine.ts';
import { UniqueViolation, type CustomFieldRecord, type WorkspaceRecord } from '../storage/port.ts';
import type { Workspace } from './model.ts';

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
    plan: 'self-hosted',
    industry: 'other',
    timezone: input.timezone ?? 'UTC',
    language: 'en',
    timeFormat: '24h',
    cancellationHours: 24,
    requiresConfirmation: false,
    hours: defaultHours(),
    domains: [],
    createdAt: now,
    updatedAt: now,
  };
  try {
    await deps.storage.createWorkspace(workspace);
  } catch (error) {
    if (error instanceof UniqueViolation) throw new AppError('VALIDATION_ERROR', `a workspace with the slug ${input.slug} already exists`);
    throw error;
  }
  const apiKey = await createApiKey(deps, workspace.id, 'default');
  return { workspace, apiKey };
}

/** A new API key for the workspace: 32 random bytes behind a recognisable prefix; only its hash is kept. */
export async function createApiKey(deps: Pick<AppDeps, 'storage' | 'clock'>, workspaceId: string, name: string): Promise<string> {
  const key = randomToken(API_KEY_PREFIX, 32);
  await deps.storage.createApiKey({
    id: newId('key', deps.clock.now()),
    workspaceId,
    name,
    prefix: key.slice(0, API_KEY_PREFIX.length + 6),
    hash: sha256Hex(key),
    createdAt: deps.clock.now(),
    revokedAt: null,
  });
  return key;
}

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
    timeFormat: workspace.timeFormat,
    cancellationHours: workspace.cancellationHours,
  };
}

export function toCustomFieldJson(field: CustomFieldRecord) {
  const { workspaceId: _workspace, createdAt: _created, ...json } = field;
  return json;
}
