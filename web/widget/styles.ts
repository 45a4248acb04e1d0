import { accentOn } from './color.ts';

const LIGHT = {
  bg: '#ffffff',
  surface: '#f4f5f7',
  text: '#1a1d23',
  muted: '#555d6b',
  border: '#c9ced6',
  danger: '#b42318',
  dangerBg: '#fef3f2',
  success: '#067647',
};
const DARK = {
  bg: '#16181d',
  surface: '#21252c',
  text: '#eef0f3',
  muted: '#aeb5c1',
  border: '#4a505c',
  danger: '#fda29b',
  dangerBg: '#3b1614',
  success: '#75e0a7',
};
const DEFAULT_ACCENT = '#2563eb';

type Palette = typeof LIGHT;

const tokens = (palette: Palette, primary: string | null) => {
  const { fill, onFill, line } = accentOn(primary, palette.bg, DEFAULT_ACCENT);
  return (
    `--svc-color-bg:${palette.bg};--svc-color-surface:${palette.surface};--svc-color-text:${palette.text};`
    + `--svc-color-muted:${palette.muted};--svc-color-border:${palette.border};--svc-color-danger:${palette.danger};`
    + `--svc-color-danger-bg:${palette.dangerBg};--svc-color-success:${palette.success};`
    + `--svc-color-primary:${fill};--svc-color-on-primary:${onFill};--svc-color-primary-line:${line};color-scheme:${palette === DARK ? 'dark' : 'light'};`
  );
};

/**
 * The design tokens for a workspace colour: CSS custom properties on the host element, light by default, dark
 * with `theme="dark"` or with `theme="system"` when the visitor's system prefers dark (main.tsx resolves
 * `data-theme="auto"` to light or dark from the host page). A host page overrides any of them with a rule on
 * `svc-booking`; `--svc-radius` rounds the panel and, a little less, every card and button inside it.
 */
export function themeCss(primaryColor: string | null): string {
  const light = tokens(LIGHT, primaryColor);
  const dark = tokens(DARK, primaryColor);
  return `:host{${light}}:host([theme=dark]){${dark}}@media (prefers-color-scheme:dark){:host([theme=system]){${dark}}}`;
}

/** Layout and components; every colour comes from a token. */
export const BASE_CSS = `
:host{all:initial;display:block;--svc-inner-radius:max(0px,calc(var(--svc-radius,14px) - 4px));font-family:var(--svc-font,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);font-size:16px;line-height:1.45;color:var(--svc-color-text)}
:host([position=bottom-right]),:host([position=bottom-left]){display:contents}
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
button,input,select,textarea{font:inherit;color:inherit}
h2,h3,p,ul,ol,dl,dd,fieldset{margin:0;padding:0}
ul,ol{list-style:none}
fieldset{border:0;min-width:0}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
:focus-visible{outline:3px solid var(--svc-color-primary-line);outline-offset:2px}
.panel{background:var(--svc-color-bg);color:var(--svc-color-text);border:1px solid var(--svc-color-border);border-radius:var(--svc-radius,14px);padding:20px;max-width:var(--svc-inline-width,560px);width:100%}
.head{display:flex;align-items:center;gap:12px;margin-bottom:16px}
.logo{width:36px;height:36px;border-radius:var(--svc-inner-radius);object-fit:cover}
.titles{flex:1;min-width:0}
.workspace{font-size:.875rem;color:var(--svc-color-muted);margin:0}
h2{font-size:1.25rem;line-height:1.3;font-weight:650}
h2:focus,h2:focus-visible{outline:none}
.icon-btn{display:inline-flex;align-items:center;justify-content:center;min-width:44px;min-height:44px;border-radius:var(--svc-inner-radius);border:1px solid var(--svc-color-border);background:var(--svc-color-bg);cursor:pointer;padding:0 12px}
.icon-btn:hover{background:var(--svc-color-surface)}
.icon-btn[disabled]{opacity:.4;cursor:default}
.btn svg{width:20px;height:20px;flex:none}
.icon-btn svg{width:20px;height:20px}
.btn{display:inline-flex;align-items:center;justify-content:center;gap:8px;min-height:44px;padding:10px 18px;border-radius:var(--svc-inner-radius);border:1px solid var(--svc-color-primary-line);background:var(--svc-color-primary);color:var(--svc-color-on-primary);font-weight:600;cursor:pointer;text-decoration:none}
.btn[disabled]{opacity:.7;cursor:progress}
.btn.secondary{background:var(--svc-color-bg);color:var(--svc-color-text);border-color:var(--svc-color-border)}
.btn.wide{width:100%}
.list{display:grid;gap:10px}
.choice{display:block;width:100%;text-align:start;padding:14px 16px;border:1px solid var(--svc-color-border);border-radius:var(--svc-inner-radius);background:var(--svc-color-bg);cursor:pointer}
.choice:hover{border-color:var(--svc-color-primary-line);background:var(--svc-color-surface)}
.choice-top{display:flex;justify-content:space-between;gap:12px;font-weight:600}
.choice-meta{display:block;color:var(--svc-color-muted);font-size:.875rem;margin-top:2px}
.choice-desc{display:block;color:var(--svc-color-muted);font-size:.875rem;margin-top:6px}
.price{white-space:nowrap}
.pick{display:flex;align-items:center;gap:12px;cursor:pointer;font-size:1rem;font-weight:400}
.pick input{appearance:none;width:22px;height:22px;margin:0;flex:none;border:2px solid var(--svc-color-muted);border-radius:50%;background:var(--svc-color-bg);cursor:pointer}
.pick input:checked{border-color:var(--svc-color-primary-line);background:var(--svc-color-primary-line);box-shadow:inset 0 0 0 4px var(--svc-color-bg)}
@media (forced-colors:active){.pick input{appearance:auto}}
.pick-name{font-weight:600}
.pick:has(:checked){border-color:var(--svc-color-primary-line);box-shadow:inset 0 0 0 1px var(--svc-color-primary-line)}
.note{color:var(--svc-color-muted);font-size:.875rem;margin-top:12px}
.summary-line{color:var(--svc-color-muted);font-size:.9rem;margin-bottom:12px}
.month-bar{display:flex;align-items:center;justify-content:space-between;gap:8px;margin-bottom:8px}
.month{font-weight:600;text-transform:capitalize}
table{border-collapse:collapse;width:100%;table-layout:fixed}
th{font-size:.75rem;font-weight:600;color:var(--svc-color-muted);padding:4px 0;text-align:center}
td{padding:2px;text-align:center}
.day{position:relative;width:100%;aspect-ratio:1;max-height:48px;min-height:40px;border-radius:var(--svc-inner-radius);border:1px solid transparent;background:transparent;cursor:pointer;font-weight:600;font-variant-numeric:tabular-nums}
.day[aria-disabled=true]{color:var(--svc-color-muted);font-weight:400;cursor:default;text-decoration:line-through;text-decoration-color:transparent}
.day.open{background:var(--svc-color-surface);border-color:var(--svc-color-muted)}
.day.open::after{content:"";position:absolute;left:50%;bottom:5px;width:6px;height:6px;margin-left:-3px;border-radius:50%;background:var(--svc-color-primary-line)}
.day[aria-selected=true]::after{background:var(--svc-color-on-primary)}
.day.open:hover{border-color:var(--svc-color-primary-line)}
.day.today{box-shadow:inset 0 -3px 0 var(--svc-color-muted)}
.day[aria-selected=true]{background:var(--svc-color-primary);color:var(--svc-color-on-primary);border-color:var(--svc-color-primary-line)}
.times{display:grid;grid-template-columns:repeat(auto-fill,minmax(92px,1fr));gap:8px}
.time{width:100%;min-height:44px;border-radius:var(--svc-inner-radius);border:1px solid var(--svc-color-border);background:var(--svc-color-bg);cursor:pointer;font-weight:600;font-variant-numeric:tabular-nums}
.time .seats{display:block;font-weight:400;font-size:.75rem;color:var(--svc-color-muted)}
.full .time{border-style:dashed;background:var(--svc-color-surface)}
.waitlist{margin-top:14px;padding-top:14px;border-top:1px solid var(--svc-color-border)}
.notice.ok{background:var(--svc-color-surface);border-color:var(--svc-color-border)}
.time:hover{border-color:var(--svc-color-primary-line);background:var(--svc-color-surface)}
.zone{color:var(--svc-color-muted);font-size:.875rem;margin:12px 0 0}
form{display:grid;gap:14px}
.field{display:grid;gap:4px}
label,.legend{font-weight:600;font-size:.9rem}
.hint{font-weight:400;color:var(--svc-color-muted)}
input[type=text],input[type=email],input[type=tel],input[type=number],input[type=date],select,textarea{width:100%;min-height:44px;padding:10px 12px;border:1px solid var(--svc-color-border);border-radius:var(--svc-inner-radius);background:var(--svc-color-bg)}
textarea{min-height:88px;resize:vertical}
input[aria-invalid=true],select[aria-invalid=true],textarea[aria-invalid=true]{border-color:var(--svc-color-danger);border-width:2px}
.check{display:flex;gap:10px;align-items:flex-start}
.check input{width:22px;height:22px;margin:1px 0 0;accent-color:var(--svc-color-primary-line)}
.error{color:var(--svc-color-danger);font-size:.875rem;font-weight:500}
.error[role=alert]{margin-bottom:10px}
.notice{border-radius:var(--svc-inner-radius);padding:12px 14px;margin-bottom:14px;background:var(--svc-color-danger-bg);color:var(--svc-color-text);border:1px solid var(--svc-color-danger)}
.notice .btn{margin-top:10px}
.chosen{background:var(--svc-color-surface);border-radius:var(--svc-inner-radius);padding:12px 14px;margin-bottom:16px}
.chosen strong{display:block}
.chosen p{font-size:.875rem;color:var(--svc-color-muted)}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:4px 0 18px}
dt{color:var(--svc-color-muted)}
dd{font-weight:600}
.done-mark{display:inline-flex;width:44px;height:44px;border-radius:50%;align-items:center;justify-content:center;background:var(--svc-color-surface);color:var(--svc-color-success);margin-bottom:8px}
.done-mark svg{width:26px;height:26px}
.done-mark.pending{color:var(--svc-color-muted)}
.actions{display:flex;flex-wrap:wrap;gap:10px}
.note+.actions{margin-top:16px}
.loading{color:var(--svc-color-muted);padding:16px 0}
.skeleton{display:grid;gap:10px}
.skeleton span{display:block;height:64px;border-radius:var(--svc-inner-radius);background:var(--svc-color-surface)}
.times-skeleton{grid-template-columns:repeat(auto-fill,minmax(92px,1fr));gap:8px}
.times-skeleton span{height:44px}
.launcher{position:fixed;bottom:20px;z-index:2147483000;display:inline-flex;align-items:center;gap:8px;min-height:48px;padding:12px 20px;border:0;border-radius:999px;background:var(--svc-color-primary);color:var(--svc-color-on-primary);font-weight:650;cursor:pointer;box-shadow:0 6px 24px rgb(0 0 0 / .22)}
.launcher svg{width:20px;height:20px}
:host([position=bottom-right]) .launcher{right:20px}
:host([position=bottom-left]) .launcher{left:20px}
dialog{padding:0;border:0;background:transparent;max-width:none;max-height:none;width:min(560px,calc(100vw - 16px));margin:auto}
dialog::backdrop{background:rgb(10 12 16 / .55)}
dialog .panel{height:min(720px,calc(100dvh - 32px));overflow:auto;box-shadow:0 20px 60px rgb(0 0 0 / .35);max-width:none}
@media (max-width:480px){.panel{padding:16px}dialog{width:100vw;margin:auto 0 0}dialog .panel{border-radius:16px 16px 0 0;height:calc(100dvh - 24px)}.launcher{bottom:16px}:host([position=bottom-right]) .launcher{right:16px}:host([position=bottom-left]) .launcher{left:16px}}
@keyframes svc-pulse{50%{opacity:.55}}
@media (prefers-reduced-motion:no-preference){.skeleton span{animation:svc-pulse 1.2s ease-in-out infinite}.choice,.day,.time,.btn{transition:background-color .12s,border-color .12s}}
`;

/** A constructable stylesheet: allowed under a CSP without 'unsafe-inline' in style-src. */
export function sheet(css: string): CSSStyleSheet {
  const result = new CSSStyleSheet();
  result.replaceSync(css);
  return result;
}
