import { describe, expect, test } from 'bun:test';
import { accentOn, contrast } from '../../web/widget/color.ts';
import { themeCss } from '../../web/widget/styles.ts';

/* The workspace colour in the widget: the brand stays itself on the surfaces it fills; the text on it is chosen. */
describe('the widget accent', () => {
  test('bright yellow (#ffe600) stays yellow on buttons, with dark text on it, in both themes', () => {
    for (const background of ['#ffffff', '#16181d']) {
      const { fill, onFill } = accentOn('#ffe600', background, '#2563eb');
      expect(fill).toBe('#ffe600');
      expect(onFill).toBe('#111111');
      expect(contrast(fill, onFill)).toBeGreaterThanOrEqual(4.5);
    }
    expect(themeCss('#ffe600')).toContain('--svc-color-primary:#ffe600;--svc-color-on-primary:#111111;');
  });

  test('a dark brand keeps white text; lines drawn on the background reach 3:1 (yellow on white is moved, on dark it is not)', () => {
    expect(accentOn('#0f766e', '#ffffff', '#2563eb')).toEqual({ fill: '#0f766e', onFill: '#ffffff', line: '#0f766e' });
    const onWhite = accentOn('#ffe600', '#ffffff', '#2563eb').line;
    expect(contrast(onWhite, '#ffffff')).toBeGreaterThanOrEqual(3);
    expect(accentOn('#ffe600', '#16181d', '#2563eb').line).toBe('#ffe600');
  });

  test('no colour or a malformed one gives the default', () => {
    expect(accentOn(null, '#ffffff', '#2563eb').fill).toBe('#2563eb');
    expect(accentOn('yellow', '#ffffff', '#2563eb').fill).toBe('#2563eb');
  });
});
