/** The workspaces feature's public face: what other features and the composition use of it. */
export { DeletedResponse } from './model.ts';
export { workspaceRoutes } from './routes.ts';
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
