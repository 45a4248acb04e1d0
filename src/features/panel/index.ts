/** The panel feature's public face: what other features and the composition use of it. */
export { panelAdminRoutes } from './admin-routes.ts';
export { panelPages } from './pages.ts';
export { createPairingCode } from './pairing.ts';
export { panelRoutes } from './routes.ts';
