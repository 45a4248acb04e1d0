/*
 * The API reference page (/api/v1/docs): starts Redoc's standalone bundle, which the page loads just before this
 * script, on openapi.json, with svc's colours, picked for WCAG AA contrast. Light only: Redoc 2 has no dark mode,
 * and its theme does not reach every colour it writes (docs/decisions/0017).
 */

interface RedocGlobal {
  init(specUrl: string, options: Record<string, unknown>, element: HTMLElement | null): void;
}

/** Text and accents that read at 4.5:1 or more on the page's white background. */
const palette = {
  panel: '#f6f7f9',
  text: '#1a1d23',
  muted: '#555d6b',
  border: '#d5d9e0',
  primary: '#1d4ed8',
  success: '#166534',
  warning: '#92400e',
  error: '#b42318',
};

const theme = {
  colors: {
    primary: { main: palette.primary },
    success: { main: palette.success },
    warning: { main: palette.warning },
    error: { main: palette.error },
    text: { primary: palette.text, secondary: palette.muted },
    border: { dark: palette.border, light: palette.border },
    // the tabs of the response samples sit on the right panel, dark in both schemes
    responses: {
      success: { color: palette.success, backgroundColor: palette.panel, tabTextColor: '#6ee7a0' },
      error: { color: palette.error, backgroundColor: palette.panel, tabTextColor: '#fda29b' },
      redirect: { color: palette.warning, backgroundColor: palette.panel, tabTextColor: '#fcd34d' },
      info: { color: palette.primary, backgroundColor: palette.panel, tabTextColor: '#93b4ff' },
    },
    // the method badges: white text on each, dark enough for 4.5:1
    http: {
      get: '#0b6e4f',
      post: '#1d4ed8',
      put: '#8a4b00',
      options: '#4b5563',
      patch: '#6b21a8',
      delete: '#b42318',
      basic: '#4b5563',
      link: '#0e7490',
      head: '#4b5563',
    },
  },
  schema: {
    linesColor: palette.border,
    typeNameColor: palette.muted,
    typeTitleColor: palette.muted,
    requireLabelColor: palette.error,
    nestedBackground: palette.panel,
  },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
    code: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', color: '#9f1239', backgroundColor: '#f1f3f6' },
    links: { color: palette.primary, visited: palette.primary, hover: palette.text },
  },
  sidebar: { backgroundColor: palette.panel, textColor: palette.text, activeTextColor: palette.primary },
  rightPanel: { backgroundColor: '#1a1d23', textColor: '#eef0f3' },
  codeBlock: { backgroundColor: '#111318' },
};

(window as unknown as { Redoc: RedocGlobal }).Redoc.init(
  'openapi.json',
  {
    theme,
    // the document is served by this svc: the button downloads it from there
    hideDownloadButton: false,
    expandResponses: '200',
    jsonSampleExpandLevel: 2,
  },
  document.getElementById('redoc'),
);
