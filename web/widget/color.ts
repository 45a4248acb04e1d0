/*
 * The workspace's primaryColor as the widget's accent, adjusted until it meets WCAG AA (4.5:1) against the
 * theme's background, with the text colour on it that contrasts most.
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

/** `color` moved toward black (light background) or white (dark) until it has 4.5:1 against `background`. */
export function accentOn(color: string | null, background: string, fallback: string): { accent: string; onAccent: string } {
  const base = parse(color ?? '') ?? parse(fallback)!;
  const target: Rgb = luminance(parse(background)!) > 0.5 ? [0, 0, 0] : [255, 255, 255];
  let accent = toHex(base);
  for (let step = 1; step <= 20 && contrast(accent, background) < 4.5; step++) accent = toHex(mix(base, target, step / 20));
  const onAccent = contrast(accent, '#ffffff') >= contrast(accent, '#111111') ? '#ffffff' : '#111111';
  return { accent, onAccent };
}
