/*
 * The panel's accent is the workspace's colour (primaryColor), moved until it reads at WCAG AA on the panel's
 * light or dark surfaces, as the widget does (web/widget/color.ts). Set through the CSSOM, which the panel's CSP
 * (`style-src 'self'`) allows; without a colour the stylesheet's blue stays.
 */
import { accentOn } from '../widget/color.ts';

/** the panel's card colours in light and dark (web/panel/panel.css) */
const SURFACE = { light: '#f6f7f9', dark: '#181b21' };

let current: string | null = null;
let watching = false;

function paint() {
  const style = document.documentElement.style;
  if (!current) {
    style.removeProperty('--accent');
    style.removeProperty('--accent-text');
    return;
  }
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  // The panel uses its accent for lines and text on its surfaces as well as for fills, so it takes the colour
  // moved until it reads there, and the text on it that contrasts more.
  const { line } = accentOn(current, dark ? SURFACE.dark : SURFACE.light, '#1d4ed8');
  const { onFill } = accentOn(line, dark ? SURFACE.dark : SURFACE.light, '#1d4ed8');
  style.setProperty('--accent', line);
  style.setProperty('--accent-text', onFill);
}

/** Uses `color` (`#rrggbb`, or null for svc's blue) as the accent, in light and dark alike. */
export function useWorkspaceAccent(color: string | null) {
  current = color && /^#[0-9a-f]{6}$/i.test(color) ? color : null;
  if (!watching) {
    watching = true;
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', paint);
  }
  paint();
}
