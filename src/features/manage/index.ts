/** The manage feature's public face: what other features and the composition use of it. */
export { manageRoutes } from './routes.ts';
