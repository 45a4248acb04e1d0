import type { CaptchaProvider } from '../../src/core/widget-protocol.ts';

/** reCAPTCHA, Turnstile and hCaptcha share one explicit-render API. */
interface CaptchaApi {
  render(element: HTMLElement, options: Record<string, unknown>): string | number;
  reset(id?: string | number): void;
}

const SCRIPTS: Record<CaptchaProvider, { url: string; global: string }> = {
  recaptcha: { url: 'https://www.google.com/recaptcha/api.js?render=explicit', global: 'grecaptcha' },
  turnstile: { url: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit', global: 'turnstile' },
  hcaptcha: { url: 'https://js.hcaptcha.com/1/api.js?render=explicit', global: 'hcaptcha' },
};

const loading = new Map<CaptchaProvider, Promise<CaptchaApi>>();

/** Loads the provider's script once per page: the one request to another origin the widget may make. */
function loadProvider(provider: CaptchaProvider): Promise<CaptchaApi> {
  let promise = loading.get(provider);
  if (!promise) {
    const { url, global } = SCRIPTS[provider];
    promise = new Promise<CaptchaApi>((resolve, reject) => {
      const ready = () => (window as unknown as Record<string, CaptchaApi | undefined>)[global];
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      script.onerror = () => reject(new Error(`could not load ${url}`));
      script.onload = () => {
        const started = Date.now();
        const wait = () => {
          const api = ready();
          if (api && typeof api.render === 'function') resolve(api);
          else if (Date.now() - started > 10_000) reject(new Error(`${global} did not start`));
          else setTimeout(wait, 50);
        };
        wait();
      };
      document.head.appendChild(script);
    });
    loading.set(provider, promise);
  }
  return promise;
}

/** One rendered captcha: its current token (undefined until solved or after expiry). */
export class Captcha {
  private token: string | undefined;
  private api: CaptchaApi | undefined;
  private id: string | number | undefined;

  constructor(
    private readonly provider: CaptchaProvider,
    private readonly siteKey: string,
  ) {}

  async mount(element: HTMLElement, theme: 'light' | 'dark'): Promise<void> {
    if (this.api) return;
    this.api = await loadProvider(this.provider);
    this.id = this.api.render(element, {
      sitekey: this.siteKey,
      theme,
      callback: (token: string) => (this.token = token),
      'expired-callback': () => (this.token = undefined),
    });
  }

  current(): string | undefined {
    return this.token;
  }

  /** Tokens are single-use: after a refused booking the visitor solves a new one. */
  reset(): void {
    this.token = undefined;
    this.api?.reset(this.id);
  }
}
