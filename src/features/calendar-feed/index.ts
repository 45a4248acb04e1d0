/** The calendar-feed feature's public face: what other features and the composition use of it. */
export { calendarFeedDocumentRoutes, calendarFeedRoutes } from './routes.ts';
