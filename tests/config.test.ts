import { describe, expect, test } from 'bun:test';
import { ConfigError, loadConfig, parseConfig, retrySchedule } from '../src/platform/config.ts';

/** The ConfigError `load` throws; fails the test when it throws nothing or something else. */
function configError(load: () => unknown): ConfigError {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError, but the configuration was accepted');
}

describe('loadConfig defaults', () => {
  test('an empty environment gives the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 8080,
      HOST: '0.0.0.0',
      DATABASE_URL: 'file:./data/svc.db',
      SVC_PUBLIC_URL: 'http://localhost:8080',
      SVC_PAYMENTS: 'none',
      SVC_PAYMENT_HOLD_MINUTES: 30,
      SVC_WEBHOOK_RETRY_SCHEDULE: '5,300,1800,7200,18000,36000,36000',
      SVC_TRUST_PROXY: false,
      LOG_LEVEL: 'info',
      SVC_DEMO: true,
    });
    expect(config.SVC_SECRET).toBeUndefined();
    expect(config.STRIPE_SECRET_KEY).toBeUndefined();
  });

  test('the default retry schedule is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(retrySchedule(loadConfig({}))).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
  });

  test('an empty variable counts as unset', () => {
    expect(loadConfig({ PORT: '', LOG_LEVEL: '', DATABASE_URL: '' })).toMatchObject({ PORT: 8080, LOG_LEVEL: 'info', DATABASE_URL: 'file:./data/svc.db' });
  });

  test('variables svc does not know are ignored', () => {
    expect(loadConfig({ HOME: '/root', SVC_UNKNOWN: 'x' })).toEqual(loadConfig({}));
  });
});

describe('loadConfig converts environment strings', () => {
  test('numbers, booleans and lists are read from their text', () => {
    const config = loadConfig({
      PORT: '3000',
      SVC_PAYMENT_HOLD_MINUTES: '45',
      SVC_TRUST_PROXY: 'true',
      SVC_DEMO: 'false',
      SVC_WEBHOOK_ALLOW_PRIVATE: '1',
      SVC_WEBHOOK_RETRY_SCHEDULE: '1,2.5,4',
      LOG_LEVEL: 'warn',
      SVC_PAYMENTS: 'test',
      DATABASE_URL: 'postgres://svc@db:5432/svc',
      SVC_PUBLIC_URL: 'https://book.example.com/',
    });
    expect(config).toMatchObject({
      PORT: 3000,
      SVC_PAYMENT_HOLD_MINUTES: 45,
      SVC_TRUST_PROXY: true,
      SVC_DEMO: false,
      SVC_WEBHOOK_ALLOW_PRIVATE: true,
      LOG_LEVEL: 'warn',
      SVC_PAYMENTS: 'test',
      DATABASE_URL: 'postgres://svc@db:5432/svc',
    });
    expect(retrySchedule(config)).toEqual([1, 2.5, 4]);
  });

  test('SVC_PUBLIC_URL, unset, follows the port; set, it wins over the port', () => {
    expect(loadConfig({ PORT: '9000' }).SVC_PUBLIC_URL).toBe('http://localhost:9000');
    expect(loadConfig({}, { port: '9100' }).SVC_PUBLIC_URL).toBe('http://localhost:9100');
    expect(loadConfig({ PORT: '9000', SVC_PUBLIC_URL: 'https://book.example.com' }).SVC_PUBLIC_URL).toBe('https://book.example.com');
  });

  test('SVC_PUBLIC_URL loses its trailing slashes', () => {
    expect(loadConfig({ SVC_PUBLIC_URL: 'https://book.example.com//' }).SVC_PUBLIC_URL).toBe('https://book.example.com');
  });

  test('SVC_TRUST_PROXY=0 and =false both mean off', () => {
    expect(loadConfig({ SVC_TRUST_PROXY: '0' }).SVC_TRUST_PROXY).toBe(false);
    expect(loadConfig({ SVC_TRUST_PROXY: 'false' }).SVC_TRUST_PROXY).toBe(false);
  });

  test('every DATABASE_URL scheme of the contract is accepted: file:, libsql://, postgres://, postgresql://', () => {
    for (const url of ['file:./x.db', 'libsql://db.example.com', 'postgres://u@h/d', 'postgresql://u@h/d']) {
      expect(loadConfig({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
    }
  });

  test('SVC_PAYMENTS=stripe is accepted with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET', () => {
    const config = loadConfig({ SVC_PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' });
    expect(config).toMatchObject({ SVC_PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' });
  });
});

describe('flags win over the environment', () => {
  test('--port and --host replace PORT and HOST', () => {
    const config = loadConfig({ PORT: '3000', HOST: '127.0.0.1' }, { port: '4000', host: '::1' });
    expect(config.PORT).toBe(4000);
    expect(config.HOST).toBe('::1');
  });

  test('without flags PORT and HOST apply', () => {
    expect(loadConfig({ PORT: '3000', HOST: '127.0.0.1' }, {})).toMatchObject({ PORT: 3000, HOST: '127.0.0.1' });
  });

  test('a bad --port is a ConfigError naming PORT even when the PORT variable is fine', () => {
    const error = configError(() => loadConfig({ PORT: '3000' }, { port: 'eighty' }));
    expect(error.variable).toBe('PORT');
    expect(error.message).toContain('PORT');
  });
});

describe('a bad value is a ConfigError whose message names the variable', () => {
  const cases: [Record<string, string>, string, RegExp][] = [
    [{ PORT: 'abc' }, 'PORT', /PORT must be a whole number \(got "abc"\)/],
    [{ PORT: '80.5' }, 'PORT', /PORT must be a whole number/],
    [{ PORT: '1e3' }, 'PORT', /PORT must be a whole number/],
    [{ PORT: '70000' }, 'PORT', /PORT .*65535/],
    [{ SVC_PAYMENT_HOLD_MINUTES: '0' }, 'SVC_PAYMENT_HOLD_MINUTES', /SVC_PAYMENT_HOLD_MINUTES .*1/],
    [{ SVC_PAYMENT_HOLD_MINUTES: '2.5' }, 'SVC_PAYMENT_HOLD_MINUTES', /SVC_PAYMENT_HOLD_MINUTES must be a whole number/],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL', /LOG_LEVEL must be one of debug, info, warn, error, silent \(got "loud"\)/],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL', /DATABASE_URL .*\(got "mysql:\/\/x"\)/],
    [{ SVC_PAYMENTS: 'paypal' }, 'SVC_PAYMENTS', /SVC_PAYMENTS must be one of none, test, stripe, mollie \(got "paypal"\)/],
    [{ SVC_PAYMENTS: 'stripe' }, 'STRIPE_SECRET_KEY', /STRIPE_SECRET_KEY is required when SVC_PAYMENTS=stripe/],
    [{ SVC_PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'sk_test_1' }, 'STRIPE_WEBHOOK_SECRET', /STRIPE_WEBHOOK_SECRET is required when SVC_PAYMENTS=stripe/],
    [{ SVC_PAYMENTS: 'mollie' }, 'MOLLIE_API_KEY', /MOLLIE_API_KEY is required when SVC_PAYMENTS=mollie/],
    [{ SVC_PAYMENTS: 'mollie', MOLLIE_API_KEY: 'sk_test_1' }, 'MOLLIE_API_KEY', /MOLLIE_API_KEY must be a Mollie API key/],
    [{ SVC_PAYMENTS: 'mollie', MOLLIE_API_KEY: 'test_1', MOLLIE_API_URL: 'api.mollie.com' }, 'MOLLIE_API_URL', /MOLLIE_API_URL/],
    [{ SVC_WEBHOOK_RETRY_SCHEDULE: '1,,2' }, 'SVC_WEBHOOK_RETRY_SCHEDULE', /SVC_WEBHOOK_RETRY_SCHEDULE .*\(got "1,,2"\)/],
    [{ SVC_WEBHOOK_RETRY_SCHEDULE: '5 s' }, 'SVC_WEBHOOK_RETRY_SCHEDULE', /SVC_WEBHOOK_RETRY_SCHEDULE/],
    [{ SVC_TRUST_PROXY: 'yes' }, 'SVC_TRUST_PROXY', /SVC_TRUST_PROXY .*\(got "yes"\)/],
    [{ SVC_PUBLIC_URL: 'book.example.com' }, 'SVC_PUBLIC_URL', /SVC_PUBLIC_URL/],
    [{ SVC_CAPTCHA_SECRET: 'captcha-secret' }, 'SVC_CAPTCHA_VERIFY_URL', /SVC_CAPTCHA_VERIFY_URL is required when SVC_CAPTCHA_SECRET is set/],
  ];
  for (const [env, variable, message] of cases) {
    test(`${Object.entries(env)
      .map(([key, value]) => `${key}=${value}`)
      .join(' ')} -> ConfigError naming ${variable}`, () => {
      const error = configError(() => loadConfig(env));
      expect(error.variable).toBe(variable);
      expect(error.message).toStartWith(`invalid configuration: ${variable} `);
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain('union');
    });
  }

  test('a secret that is too short is reported without its value', () => {
    const error = configError(() => loadConfig({ SVC_SECRET: 'hunter2-short' }));
    expect(error.variable).toBe('SVC_SECRET');
    expect(error.message).not.toContain('hunter2');
    expect(error.message).toContain('***');
  });
});

describe('parseConfig', () => {
  test('takes typed values as they are and fills in the defaults', () => {
    const config = parseConfig({ PORT: 0, SVC_DEMO: false, SVC_SECRET: 'x'.repeat(32) });
    expect(config).toMatchObject({ PORT: 0, SVC_DEMO: false, SVC_SECRET: 'x'.repeat(32), DATABASE_URL: 'file:./data/svc.db', LOG_LEVEL: 'info' });
  });

  test('checks typed values like text ones: SVC_PAYMENTS "paypal" -> must be one of none, test, stripe, mollie', () => {
    const error = configError(() => parseConfig({ SVC_PAYMENTS: 'paypal' }));
    expect(error.message).toBe('invalid configuration: SVC_PAYMENTS must be one of none, test, stripe, mollie (got "paypal")');
  });

  test('a non-integer number is rejected, not truncated: PORT 80.5', () => {
    expect(configError(() => parseConfig({ PORT: 80.5 })).variable).toBe('PORT');
  });
});
