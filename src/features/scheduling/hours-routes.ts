import { accessDeclarations } from '../../platform/access/macro.ts';
import { keyOrSession } from '../../platform/access/policy.ts';
import { OPEN_TO_DEMO } from '../workspaces/index.ts';
import { Elysia } from 'elysia';
import type { AppDeps } from '../../platform/app-deps.ts';
import { findProvider } from '../services/index.ts';
import { notFound } from '../../core/errors.ts';
import { keyedErrors, keyedWriteErrors, SlugParams } from '../../core/models.ts';
import type { ProviderRecord, WorkspaceRecord } from '../../ports/storage/index.ts';
import { ProviderScheduleParams, ProviderScheduleResponse, ScheduleBody, ScheduleResponse, parseSchedule, toScheduleJson } from './hours-model.ts';

const tags = ['Working hours'];

const SCHEDULE_FORMAT =
  'Times are HH:mm wall-clock times in the workspace time zone; an interval ends after it starts and may end at 24:00; '
  + "a day's intervals are sorted by start and do not overlap; `exceptions` replace the weekday's hours on one date each (intervals [] = closed).";

function providerSchedule(provider: ProviderRecord, workspace: WorkspaceRecord) {
  return { success: true, schedule: toScheduleJson(provider.hours ?? workspace.hours), inherited: provider.hours === null };
}

/** v1 routes of working hours (workspace and provider schedules). */
export function hoursRoutes(deps: AppDeps) {
  return new Elysia({ name: 'working-hours', prefix: '/workspaces' })
    .use(accessDeclarations)
    .get('/:slug/schedule', ({ principal }) => ({ success: true, schedule: toScheduleJson(principal.workspace.hours) }), {
      access: keyOrSession('read', OPEN_TO_DEMO),
      params: SlugParams,
      response: { 200: ScheduleResponse, ...keyedErrors },
      detail: {
        operationId: 'getSchedule',
        summary: "Get the workspace's working hours",
        description: `A new workspace works Mon–Fri 09:00–17:00. Providers without a schedule of their own work these hours. ${SCHEDULE_FORMAT}`,
        tags,
      },
    })
    .put(
      '/:slug/schedule',
      async ({ principal, body }) => {
        const hours = parseSchedule(body);
        const workspace = await deps.storage.updateWorkspace(principal.workspace.id, { hours }, deps.clock.now());
        if (!workspace) throw notFound(`workspace ${principal.workspace.slug}`);
        return { success: true, schedule: toScheduleJson(workspace.hours) };
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: SlugParams,
        body: ScheduleBody,
        response: { 200: ScheduleResponse, ...keyedWriteErrors },
        detail: {
          operationId: 'replaceSchedule',
          summary: "Replace the workspace's working hours",
          description:
            `The body is the whole schedule, { weekly, exceptions } (exceptions default to none); the GET answer { schedule: {...} } `
            + `is accepted as well. Existing bookings are kept. ${SCHEDULE_FORMAT}`,
          tags,
        },
      },
    )
    .get(
      '/:slug/providers/:providerId/schedule',
      async ({ principal, params }) => {
        const provider = await findProvider(deps, principal.workspace, params.providerId);
        return providerSchedule(provider, principal.workspace);
      },
      {
        access: keyOrSession('read', OPEN_TO_DEMO),
        params: ProviderScheduleParams,
        response: { 200: ProviderScheduleResponse, ...keyedErrors },
        detail: {
          operationId: 'getProviderSchedule',
          summary: "Get a provider's working hours",
          description:
            "A provider without a schedule of its own works the workspace's: the answer then shows the workspace's schedule "
            + `with \`inherited: true\`; with its own, \`inherited: false\`. ${SCHEDULE_FORMAT}`,
          tags,
        },
      },
    )
    .put(
      '/:slug/providers/:providerId/schedule',
      async ({ principal, params, body }) => {
        const hours = parseSchedule(body);
        const provider = await deps.storage.updateProvider(principal.workspace.id, params.providerId, { hours, updatedAt: deps.clock.now() });
        if (!provider) throw notFound(`provider ${params.providerId}`);
        return providerSchedule(provider, principal.workspace);
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: ProviderScheduleParams,
        body: ScheduleBody,
        response: { 200: ProviderScheduleResponse, ...keyedWriteErrors },
        detail: {
          operationId: 'replaceProviderSchedule',
          summary: 'Give a provider working hours of its own',
          description:
            "The body is as for the workspace schedule. From now on the provider works these hours instead of the workspace's "
            + `(\`inherited: false\`); DELETE returns it to the workspace's. ${SCHEDULE_FORMAT}`,
          tags,
        },
      },
    )
    .delete(
      '/:slug/providers/:providerId/schedule',
      async ({ principal, params }) => {
        const provider = await deps.storage.updateProvider(principal.workspace.id, params.providerId, { hours: null, updatedAt: deps.clock.now() });
        if (!provider) throw notFound(`provider ${params.providerId}`);
        return providerSchedule(provider, principal.workspace);
      },
      {
        access: keyOrSession('svc_manage_operations'),
        params: ProviderScheduleParams,
        response: { 200: ProviderScheduleResponse, ...keyedErrors },
        detail: {
          operationId: 'deleteProviderSchedule',
          summary: "Return a provider to the workspace's working hours",
          description: "Drops the provider's own schedule; the answer shows the workspace's, with `inherited: true`.",
          tags,
        },
      },
    );
}
