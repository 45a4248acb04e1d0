import { describe, expect, test } from 'bun:test';
import { currencyExponent, formatMoney, isValidCurrency, toMajor, toMinor } from '../../src/core/money.ts';

describe('currencyExponent', () => {
  const cases: [string, number][] = [
    ['EUR', 2],
    ['USD', 2],
    ['GBP', 2],
    ['CHF', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['VND', 0],
    ['CLP', 0],
    ['ISK', 0],
    ['UGX', 0],
    ['XAF', 0],
    ['XOF', 0],
    ['KWD', 3],
    ['BHD', 3],
    ['OMR', 3],
    ['JOD', 3],
    ['TND', 3],
    ['LYD', 3],
    ['IQD', 3],
    ['CLF', 4],
    ['UYW', 4],
  ];
  for (const [currency, exponent] of cases) {
    test(`${currency} has ${exponent} decimal places (ISO 4217)`, () => {
      expect(currencyExponent(currency)).toBe(exponent);
    });
  }

  test('an unknown or lower-case currency code is a RangeError naming the code', () => {
    expect(() => currencyExponent('eur')).toThrow(new RangeError('currency must be an ISO 4217 code in upper case such as EUR, got "eur"'));
    expect(() => currencyExponent('ZZZ')).toThrow(RangeError);
    expect(() => currencyExponent('EURO')).toThrow(RangeError);
  });
});

describe('toMinor', () => {
  test('19.99 EUR is 1999 cents, not 1998 (no float drift)', () => {
    expect(toMinor(19.99, 'EUR')).toBe(1999);
  });

  test('0.07 EUR is 7 cents', () => {
    expect(toMinor(0.07, 'EUR')).toBe(7);
  });

  test('35.5 EUR is 3550 cents', () => {
    expect(toMinor(35.5, 'EUR')).toBe(3550);
  });

  test('1.005 KWD is 1005 fils', () => {
    expect(toMinor(1.005, 'KWD')).toBe(1005);
  });

  test('500 JPY is 500 yen', () => {
    expect(toMinor(500, 'JPY')).toBe(500);
  });

  test('zero is zero minor units', () => {
    expect(toMinor(0, 'EUR')).toBe(0);
    expect(toMinor(0, 'JPY')).toBe(0);
  });

  test('binary noise from arithmetic is not an extra decimal place: 0.1 + 0.2 EUR is 30 cents', () => {
    expect(toMinor(0.1 + 0.2, 'EUR')).toBe(30);
    expect(toMinor(1.1 * 3, 'EUR')).toBe(330);
    expect(toMinor(0.7 + 0.1, 'KWD')).toBe(800);
  });

  test('every cent amount from 0.00 to 99.99 EUR converts exactly', () => {
    for (let cents = 0; cents < 10_000; cents++) {
      const major = Number(`${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`);
      expect(toMinor(major, 'EUR')).toBe(cents);
    }
  });

  test('35.555 EUR has a third decimal place -> RangeError naming EUR and 2 decimal places', () => {
    expect(() => toMinor(35.555, 'EUR')).toThrow(new RangeError('amount must be a non-negative number of EUR with at most 2 decimal places, got 35.555'));
  });

  test('a tiny real extra decimal place is refused, not rounded away: 35.55001 EUR -> RangeError', () => {
    expect(() => toMinor(35.55001, 'EUR')).toThrow(RangeError);
    expect(() => toMinor(0.001, 'EUR')).toThrow(RangeError);
    expect(() => toMinor(1e-7, 'EUR')).toThrow(RangeError);
  });

  test('1.5 JPY has a decimal place JPY does not have -> RangeError naming JPY', () => {
    expect(() => toMinor(1.5, 'JPY')).toThrow(new RangeError('amount must be a non-negative whole number of JPY (JPY has no decimal places), got 1.5'));
  });

  test('1.0005 KWD has a fourth decimal place -> RangeError naming KWD and 3 decimal places', () => {
    expect(() => toMinor(1.0005, 'KWD')).toThrow(new RangeError('amount must be a non-negative number of KWD with at most 3 decimal places, got 1.0005'));
  });

  test('a negative amount -> RangeError naming the currency', () => {
    expect(() => toMinor(-1, 'EUR')).toThrow(new RangeError('amount must be a non-negative number of EUR with at most 2 decimal places, got -1'));
    expect(() => toMinor(-0.01, 'USD')).toThrow(RangeError);
  });

  test('NaN and infinities -> RangeError', () => {
    expect(() => toMinor(Number.NaN, 'EUR')).toThrow(RangeError);
    expect(() => toMinor(Number.POSITIVE_INFINITY, 'EUR')).toThrow(RangeError);
    expect(() => toMinor(Number.NEGATIVE_INFINITY, 'EUR')).toThrow(RangeError);
  });

  test('an amount of 10^14 minor units or more -> RangeError', () => {
    expect(toMinor(999_999_999_999.99, 'EUR')).toBe(99_999_999_999_999);
    expect(() => toMinor(1e12, 'EUR')).toThrow(RangeError);
    expect(() => toMinor(1e14, 'JPY')).toThrow(RangeError);
    expect(() => toMinor(1e300, 'EUR')).toThrow(RangeError);
  });

  test('an invalid currency -> RangeError', () => {
    expect(() => toMinor(1, 'eur')).toThrow(RangeError);
  });
});

describe('toMajor', () => {
  test('3550 EUR cents is 35.5', () => {
    expect(toMajor(3550, 'EUR')).toBe(35.5);
  });

  test('500 JPY is 500', () => {
    expect(toMajor(500, 'JPY')).toBe(500);
  });

  test('1234 KWD fils is 1.234', () => {
    expect(toMajor(1234, 'KWD')).toBe(1.234);
  });

  test('1999 USD cents is 19.99', () => {
    expect(toMajor(1999, 'USD')).toBe(19.99);
  });

  test('a negative amount (refund) converts', () => {
    expect(toMajor(-1999, 'EUR')).toBe(-19.99);
  });

  test('a fractional or unsafe minor amount -> RangeError', () => {
    expect(() => toMajor(35.5, 'EUR')).toThrow(new RangeError('minor units of EUR must be a whole number, got 35.5'));
    expect(() => toMajor(Number.NaN, 'EUR')).toThrow(RangeError);
    expect(() => toMajor(2 ** 53, 'EUR')).toThrow(RangeError);
  });
});

describe('round trips', () => {
  const cases: [string, number[]][] = [
    ['EUR', [0, 0.01, 0.07, 0.1, 0.3, 1, 19.99, 35.5, 99.95, 1234.56, 999_999.99]],
    ['USD', [0.01, 0.29, 4.35, 19.99, 1.15, 1000.1]],
    ['JPY', [0, 1, 500, 12_345, 1_000_000]],
    ['KWD', [0.001, 1.005, 1.234, 2.5, 9.999, 1000.001]],
  ];
  for (const [currency, values] of cases) {
    test(`${currency}: toMajor(toMinor(x)) === x`, () => {
      for (const value of values) expect(toMajor(toMinor(value, currency), currency)).toBe(value);
    });

    test(`${currency}: toMinor(toMajor(n)) === n`, () => {
      const step = 10 ** currencyExponent(currency);
      for (let minor = 0; minor < 5 * step; minor += 7) expect(toMinor(toMajor(minor, currency), currency)).toBe(minor);
    });
  }
});

describe('formatMoney', () => {
  test('3550 EUR in en is €35.50 (always two decimal places)', () => {
    expect(formatMoney(3550, 'EUR', 'en')).toBe('€35.50');
  });

  test('3550 EUR in de puts the symbol after, with a comma', () => {
    expect(formatMoney(3550, 'EUR', 'de')).toBe('35,50\u00a0€');
  });

  test('500 JPY in en has no decimal places', () => {
    expect(formatMoney(500, 'JPY', 'en')).toBe('¥500');
  });

  test('1234 KWD in en has three decimal places', () => {
    expect(formatMoney(1234, 'KWD', 'en')).toBe('KWD\u00a01.234');
  });

  test('1000 KWD in en keeps the trailing zeros of its three decimal places', () => {
    expect(formatMoney(1000, 'KWD', 'en')).toBe('KWD\u00a01.000');
  });

  test('an invalid currency or a fractional minor amount -> RangeError', () => {
    expect(() => formatMoney(100, 'eur', 'en')).toThrow(RangeError);
    expect(() => formatMoney(1.5, 'EUR', 'en')).toThrow(RangeError);
  });
});

describe('isValidCurrency', () => {
  test('upper-case ISO 4217 codes known to Intl are valid', () => {
    for (const code of ['EUR', 'USD', 'JPY', 'KWD', 'GBP', 'CHF', 'BRL']) expect(isValidCurrency(code)).toBe(true);
  });

  test('lower case, wrong length and unknown codes are not', () => {
    for (const code of ['eur', 'Eur', 'EU', 'EURO', '', 'ZZZ', 'E1R', ' EUR']) expect(isValidCurrency(code)).toBe(false);
  });
});
