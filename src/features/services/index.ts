/** The services feature's public face: what other features and the composition use of it. */
export { ProviderParams } from './model.ts';
export { serviceRoutes } from './routes.ts';
export { findProvider } from './service.ts';
