/*
 * The workspace's primaryColor as the widget's accent: kept as it is where it fills a surface, with the text
 * colour on it that contrasts most (WCAG AA), and moved toward black or white only where it draws a line on the
 * theme's background (3:1, WCAG's non-text contrast).
 */

type Rgb = [number, number, number];

function parse(hex: string): Rgb | null {
  const match = /^#([0-9a-f]{6})$/i.exec(hex.trim());
  if (!match) return null;
  const value = parseInt(match[1]!, 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

const toHex = (rgb: Rgb) => `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;

function luminance([r, g, b]: Rgb): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(parse(a)!), luminance(parse(b)!)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

const mix = (from: Rgb, to: Rgb, amount: number): Rgb => [0, 1, 2].map((i) => from[i]! + (to[i]! - from[i]!) * amount) as Rgb;

/** `color` moved toward black (light background) or white (dark) until it has `ratio` against `background`. */
function adjusted(base: Rgb, background: string, ratio: number): string {
  const target: Rgb = luminance(parse(background)!) > 0.5 ? [0, 0, 0] : [255, 255, 255];
  let color = toHex(base);
  for (let step = 1; step <= 20 && contrast(color, background) < ratio; step++) color = toHex(mix(base, target, step / 20));
  return color;
}

export interface Accent {
  /** the brand colour itself, as given: the fill of buttons, the chosen day and the launcher */
  fill: string;
  /** the text on `fill`: white or near-black, whichever contrasts more (bright yellow gets dark text) */
  onFill: string;
  /** the brand colour where it is a line or text on the background (focus ring, hover border): moved until 3:1 */
  line: string;
}

/**
 * The workspace colour for a theme's `background`. A brand colour stays what it is on the surfaces it fills; the
 * text on it is chosen for contrast instead of darkening the brand (a bright yellow must stay yellow, not olive).
 */
export function accentOn(color: string | null, background: string, fallback: string): Accent {
  const base = parse(color ?? '') ?? parse(fallback)!;
  const fill = toHex(base);
  const onFill = contrast(fill, '#ffffff') >= contrast(fill, '#111111') ? '#ffffff' : '#111111';
  return { fill, onFill, line: adjusted(base, background, 3) };
}
