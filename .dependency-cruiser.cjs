/*
 * The dependency rule of src/ (docs/architecture.md): imports only go down the layers
 *   composition (src/*.ts, src/scheduler/)  →  features  →  platform  →  ports  →  core
 * and adapters/ implement ports. Features are ordered too (FEATURES, lowest first): a feature may use a lower
 * one, only through that feature's public index.ts. `npm run lint` runs this; there are no exceptions.
 */
const FEATURES = [
  'workspaces',
  'services',
  'calendars',
  'scheduling',
  'mail',
  'bookings',
  'webhooks',
  'payments',
  'manage',
  'waitlist',
  'calendar-feed',
  'panel',
  'demo',
  'pages',
];

const below = (i) => FEATURES.slice(0, i);
const featureRules = FEATURES.map((feature, i) => ({
  name: `feature-order-${feature}`,
  comment: `features/${feature} may use only the features below it (${below(i).join(', ') || 'none'}), through their index.ts`,
  severity: 'error',
  from: { path: `^src/features/${feature}/` },
  to: {
    path: '^src/features/([^/]+)/',
    pathNot: [`^src/features/${feature}/`, ...below(i).map((lower) => `^src/features/${lower}/index\\.ts$`)],
  },
}));

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'no import cycle anywhere', from: {}, to: { circular: true } },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment: 'src/core/ holds plain values and pure functions: it imports nothing of svc outside itself',
      from: { path: '^src/core/' },
      to: { path: '^(src/(?!core/)|adapters/)' },
    },
    {
      name: 'ports-only-core',
      severity: 'error',
      comment: 'a port is an interface over core records',
      from: { path: '^src/ports/' },
      to: { path: '^(src/(?!core/|ports/)|adapters/)' },
    },
    {
      name: 'platform-below-features',
      severity: 'error',
      comment: 'platform (http, access, runtime, openapi, config, pages kit) serves every feature and knows none',
      from: { path: '^src/platform/' },
      to: { path: '^(src/(?!core/|ports/|platform/)|adapters/)' },
    },
    {
      name: 'adapters-implement-ports',
      severity: 'error',
      comment: 'adapters/<port>/<backend> implement a port: they see core, ports and platform (config), nothing above',
      from: { path: '^adapters/' },
      to: { path: '^src/(?!core/|ports/|platform/)' },
    },
    {
      name: 'features-not-composition',
      severity: 'error',
      comment: 'features do not reach the composition (app, server, main, deps, scheduler) or the adapters',
      from: { path: '^src/features/' },
      to: { path: '^(src/[^/]+\\.ts$|src/scheduler/|adapters/)' },
    },
    {
      name: 'web-shares-only-the-widget-protocol',
      severity: 'error',
      comment: 'browser bundles import nothing of the server but the wire types of the widget config and their own message catalogues',
      from: { path: '^web/' },
      to: { path: '^(src|adapters)/', pathNot: ['^src/core/widget-protocol\\.ts$', '^src/core/i18n/[a-z]+/(widget|panel)\\.ts$'] },
    },
    {
      name: 'each-bundle-its-own-messages',
      severity: 'error',
      comment: 'the widget bundle carries only the widget namespace of the catalogues, the panel only the panel one',
      from: { path: '^web/(widget|panel)/' },
      to: { path: '^src/core/i18n/', pathNot: '^src/core/i18n/[a-z]+/$1\\.ts$' },
    },
    ...featureRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|tests|scripts)/|generated\\.ts$|schema\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
