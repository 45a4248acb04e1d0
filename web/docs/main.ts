/*
 * The API reference page (/api/v1/docs): starts Redoc's standalone bundle, which the page loads just before this
 * script, on openapi.json, with svc's colours, picked for WCAG AA contrast. Redoc 2 has no dark mode of its own:
 * when the reader's system prefers dark, the page starts Redoc with a dark theme, and starts it again when that
 * preference changes. The few colours Redoc writes into its components rather than taking from the theme are
 * overridden by the page's stylesheet under the same media query (web/docs/docs.css, docs/decisions/0017).
 */

interface RedocGlobal {
  init(specUrl: string, options: Record<string, unknown>, element: HTMLElement | null): void;
}

interface Palette {
  /** the page behind the middle column */
  page: string;
  /** the sidebar and nested schemas */
  panel: string;
  text: string;
  muted: string;
  border: string;
  primary: string;
  success: string;
  warning: string;
  error: string;
  /** inline code in the middle column */
  code: string;
  codeBackground: string;
  /** the right panel (request and response samples) and its code blocks */
  right: string;
  rightText: string;
  codeBlock: string;
}

/** Text and accents that read at 4.5:1 or more on the page's white background. */
const light: Palette = {
  page: '#ffffff',
  panel: '#f6f7f9',
  text: '#1a1d23',
  muted: '#555d6b',
  border: '#d5d9e0',
  primary: '#1d4ed8',
  success: '#166534',
  warning: '#92400e',
  error: '#b42318',
  code: '#9f1239',
  codeBackground: '#f1f3f6',
  right: '#1a1d23',
  rightText: '#eef0f3',
  codeBlock: '#111318',
};

/** The same roles on a dark page: every text colour reads at 7:1 or more on `page` and at 6:1 on `panel`. */
const dark: Palette = {
  page: '#15171c',
  panel: '#1d2026',
  text: '#e8eaee',
  muted: '#aab2bf',
  border: '#3a3f4a',
  primary: '#8fb3ff',
  success: '#5ee08f',
  warning: '#f5c451',
  error: '#ff8a80',
  code: '#fda4af',
  codeBackground: '#262a32',
  right: '#0e1013',
  rightText: '#eef0f3',
  codeBlock: '#08090b',
};

const fonts = {
  body: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  code: 'ui-monospace, SFMono-Regular, Menlo, monospace',
};

function themeOf(palette: Palette) {
  const isDark = palette === dark;
  // the response tabs of the right panel, and the response buttons of the middle column
  const response = (color: string, tint: string, tab: string) => ({ color, backgroundColor: isDark ? tint : palette.panel, tabTextColor: tab });
  return {
    colors: {
      primary: { main: palette.primary },
      success: { main: palette.success },
      warning: { main: palette.warning },
      error: { main: palette.error },
      text: { primary: palette.text, secondary: palette.muted },
      border: { dark: palette.border, light: palette.border },
      responses: {
        success: response(palette.success, '#12271b', '#6ee7a0'),
        error: response(palette.error, '#2c1614', '#fda29b'),
        redirect: response(palette.warning, '#2b2210', '#fcd34d'),
        info: response(palette.primary, '#151f33', '#93b4ff'),
      },
      // the method badges: white text on each, dark enough for 4.5:1, in both schemes
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
      arrow: { color: palette.muted },
    },
    typography: {
      fontFamily: fonts.body,
      headings: { fontFamily: fonts.body },
      code: { fontFamily: fonts.code, color: palette.code, backgroundColor: palette.codeBackground },
      links: { color: palette.primary, visited: palette.primary, hover: palette.text },
    },
    sidebar: {
      backgroundColor: palette.panel,
      textColor: palette.text,
      activeTextColor: palette.primary,
      arrow: { color: palette.muted },
    },
    rightPanel: {
      backgroundColor: palette.right,
      textColor: palette.rightText,
      servers: { overlay: { backgroundColor: palette.panel, textColor: palette.text }, url: { backgroundColor: palette.page } },
    },
    codeBlock: { backgroundColor: palette.codeBlock },
    fab: { backgroundColor: palette.panel, color: palette.primary },
    // the section labels ("Request body schema", "Responses", "Authorizations") and their content type, which
    // Redoc writes in near-black whatever the theme says
    extensionsHook: (component: string) =>
      isDark && component === 'UnderlinedHeader' ? `color: ${palette.muted}; border-bottom-color: ${palette.border}; & > span { color: ${palette.text}; }` : '',
  };
}

const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');

function start(): void {
  const scheme = darkQuery.matches ? 'dark' : 'light';
  // Redoc renders into a root it never lets go of: a new element for each start
  const previous = document.getElementById('redoc');
  const element = document.createElement('div');
  element.id = 'redoc';
  element.dataset.scheme = scheme;
  if (previous) previous.replaceWith(element);
  else document.body.append(element);
  (window as unknown as { Redoc: RedocGlobal }).Redoc.init(
    'openapi.json',
    {
      theme: themeOf(scheme === 'dark' ? dark : light),
      // the document is served by this svc: the button downloads it from there
      hideDownloadButton: false,
      expandResponses: '200',
      jsonSampleExpandLevel: 2,
    },
    element,
  );
}

start();
darkQuery.addEventListener('change', start);
