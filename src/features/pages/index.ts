/** The pages feature's public face: what other features and the composition use of it. */
export { pageRoutes } from './routes.ts';
