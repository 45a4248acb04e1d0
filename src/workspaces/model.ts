import { t } from 'elysia';

export const Workspace = t.Object({
  id: t.String(),
  name: t.String(),
  slug: t.String(),
  primaryColor: t.Union([t.String(), t.Null()]),
  plan: t.String(),
  industry: t.String(),
  timezone: t.String({ description: 'IANA time zone' }),
  language: t.String({ description: 'BCP 47 language tag' }),
  timeFormat: t.String({ description: '24h or 12h' }),
  cancellationHours: t.Number({ description: 'hours' }),
});
export type Workspace = typeof Workspace.static;

export const WorkspaceResponse = t.Object({ success: t.Boolean(), workspace: Workspace });

export const CustomFieldJson = t.Object({
  id: t.String(),
  key: t.String(),
  label: t.String(),
  type: t.String(),
  required: t.Boolean(),
  options: t.Union([t.Array(t.String()), t.Null()]),
  placeholder: t.Union([t.String(), t.Null()]),
  order: t.Integer(),
  serviceIds: t.Array(t.String()),
});

export const WidgetConfigResponse = t.Object({
  success: t.Boolean(),
  workspace: t.Object({ id: t.String(), name: t.String(), primaryColor: t.Union([t.String(), t.Null()]) }),
  customFields: t.Array(CustomFieldJson),
});
