/** The workspaces feature's public face: what other features and the composition use of it. */
export { DEMO_SLUG, OPEN_TO_DEMO } from './demo-workspace.ts';
export { DeletedResponse } from './model.ts';
export { workspaceRoutes } from './routes.ts';
export { serviceSummary } from './widget-config.ts';
export {
  checkNewWorkspace,
  createApiKey,
  createWorkspace,
  defaultHours,
  issueApiKey,
  requireKnownIds,
  requireText,
  toWorkspaceJson,
  withoutRepeats,
} from './service.ts';
