/**
 * Money in minor units. The API carries `price`, `deposit` and `amount` as decimal major units (35.5 EUR,
 * docs/contract/limits.md); storage and payment providers work in integer minor units (3550). Conversions go
 * through decimal strings, never `major * 100`, which drifts (19.99 * 100 === 1998.9999999999998).
 */

/**
 * ISO 4217 minor units of every active currency whose exponent is not 2. The table is the source of truth
 * rather than `Intl.NumberFormat(...).resolvedOptions().maximumFractionDigits`, because runtimes disagree with
 * ISO 4217 (Bun reports 2 for UYW, which has 4; V8 follows CLDR display digits, e.g. 0 for IQD, which has 3).
 */
const NON_DEFAULT_EXPONENTS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** Exponent of every currency not in the table. */
const DEFAULT_EXPONENT = 2;

/**
 * Largest accepted amount, in minor units (exclusive): 10^14, i.e. 1 trillion EUR or 100 trillion JPY.
 * Below it an amount plus one extra decimal place fits in the 15 significant digits a double always keeps
 * (DBL_DIG), so `toMinor` can tell a real extra decimal from floating-point noise.
 */
const MINOR_LIMIT = 1e14;

/** Significant digits that survive any decimal → double → decimal round trip. */
const DOUBLE_DECIMAL_DIGITS = 15;

let supportedCurrencies: ReadonlySet<string> | undefined;

/** Whether `code` is 3 upper-case letters that the runtime's Intl knows as a currency (`EUR`, not `eur`). */
export function isValidCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  supportedCurrencies ??= new Set(Intl.supportedValuesOf('currency'));
  return supportedCurrencies.has(code);
}

function assertCurrency(currency: string): void {
  if (!isValidCurrency(currency)) {
    throw new RangeError(`currency must be an ISO 4217 code in upper case such as EUR, got ${JSON.stringify(currency)}`);
  }
}

/**
 * Digits after the decimal point for an ISO 4217 currency: 0 for JPY, KRW, VND, CLP, ISK, UGX, XAF, XOF, …,
 * 3 for KWD, BHD, OMR, JOD, TND, LYD, IQD, 4 for CLF and UYW, 2 for every other currency.
 * Throws a RangeError for a code that `isValidCurrency` refuses.
 */
export function currencyExponent(currency: string): number {
  assertCurrency(currency);
  return NON_DEFAULT_EXPONENTS[currency] ?? DEFAULT_EXPONENT;
}

function allowedDigits(currency: string, exponent: number): string {
  return exponent === 0
    ? `a non-negative whole number of ${currency} (${currency} has no decimal places)`
    : `a non-negative number of ${currency} with at most ${exponent} decimal place${exponent === 1 ? '' : 's'}`;
}

/**
 * Splits a finite non-negative number into the integer and fraction digits of its decimal form, rounded to
 * 15 significant digits so that binary noise (0.1 + 0.2 === 0.30000000000000004) disappears.
 * The fraction has no trailing zeros.
 */
function decimalParts(value: number): { integer: string; fraction: string } {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(value.toPrecision(DOUBLE_DECIMAL_DIGITS));
  if (!match) throw new RangeError(`cannot read ${value} as a decimal number`);
  const lead = match[1] ?? '';
  const digits = lead + (match[2] ?? '');
  const point = lead.length + Number(match[3] ?? 0);
  let integer: string;
  let fraction: string;
  if (point <= 0) {
    integer = '0';
    fraction = '0'.repeat(-point) + digits;
  } else if (point >= digits.length) {
    integer = digits + '0'.repeat(point - digits.length);
    fraction = '';
  } else {
    integer = digits.slice(0, point);
    fraction = digits.slice(point);
  }
  return { integer, fraction: fraction.replace(/0+$/, '') };
}

/**
 * Decimal major units, as the API carries them (35.5), to integer minor units (3550), exactly:
 * 19.99 EUR → 1999, 0.07 EUR → 7, 1.005 KWD → 1005, 0.1 + 0.2 EUR → 30.
 *
 * Throws a RangeError naming the currency and its allowed decimal places for more decimal places than the
 * currency has (35.555 EUR, 1.5 JPY), for a negative, NaN or infinite amount, and for an amount of
 * 10^14 minor units or more. Throws a RangeError for an invalid currency code.
 */
export function toMinor(major: number, currency: string): number {
  const exponent = currencyExponent(currency);
  const refuse = (why: string) => new RangeError(`amount must be ${allowedDigits(currency, exponent)}${why}, got ${major}`);
  if (typeof major !== 'number' || !Number.isFinite(major) || major < 0) throw refuse('');
  if (major >= MINOR_LIMIT / 10 ** exponent) throw refuse(` and below ${MINOR_LIMIT / 10 ** exponent}`);
  const { integer, fraction } = decimalParts(major);
  if (fraction.length > exponent) throw refuse('');
  return Number(integer + fraction.padEnd(exponent, '0'));
}

/**
 * Integer minor units to decimal major units: 3550 EUR → 35.5, 500 JPY → 500, 1234 KWD → 1.234.
 * The result is the double nearest to the exact decimal (IEEE division is correctly rounded), so it prints
 * as the decimal itself. Negative amounts (refunds) are allowed. Throws a RangeError when `minor` is not a
 * safe integer or the currency code is invalid.
 */
export function toMajor(minor: number, currency: string): number {
  const exponent = currencyExponent(currency);
  if (!Number.isSafeInteger(minor)) throw new RangeError(`minor units of ${currency} must be a whole number, got ${minor}`);
  return minor / 10 ** exponent;
}

/** Formatters by locale and currency; cleared when it grows past this many (locales may come from requests). */
const FORMATTER_CACHE_SIZE = 256;
const formatters = new Map<string, Intl.NumberFormat>();

/**
 * Human formatting for pages via Intl.NumberFormat, always with the currency's ISO 4217 decimal places:
 * formatMoney(3550, 'EUR', 'en') → '€35.50', formatMoney(500, 'JPY', 'en') → '¥500',
 * formatMoney(1234, 'KWD', 'en') → 'KWD 1.234' (spacing and symbols follow the locale).
 * `locale` is a BCP 47 tag (`en`, `de`, `pt-BR`); an invalid one throws a RangeError.
 */
export function formatMoney(minor: number, currency: string, locale: string): string {
  const major = toMajor(minor, currency);
  const key = `${locale}\u0000${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    const exponent = currencyExponent(currency);
    formatter = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    });
    if (formatters.size >= FORMATTER_CACHE_SIZE) formatters.clear();
    formatters.set(key, formatter);
  }
  return formatter.format(major);
}
