import { expect, test } from 'bun:test';
import { problemOf, sentence } from '../../web/panel/api/client.ts';

/* The panel shows svc's error messages to people: as sentences, with the field's message next to the field. */

test('a server message becomes a sentence: capital first letter (not of a field path), one full stop', () => {
  expect(sentence('workspace slug or API key is wrong')).toBe('Workspace slug or API key is wrong.');
  expect(sentence('Already a sentence.')).toBe('Already a sentence.');
  expect(sentence('  why?  ')).toBe('Why?');
  expect(sentence('')).toBe('');
  expect(sentence('customFields.allergies is required')).toBe('customFields.allergies is required.');
});

test("an error body becomes a Problem with its code and each field's first message, as sentences", () => {
  const problem = problemOf(
    {
      success: false,
      error: 'name must not be empty',
      code: 'VALIDATION_ERROR',
      details: [
        { path: '/name', message: 'name must not be empty' },
        { path: '/weekly/mon/0/start', message: 'weekly.mon[0].start must be HH:mm' },
        { path: '/name', message: 'a second message for name' },
      ],
    },
    400,
  );
  expect({ message: problem.message, code: problem.code, fields: problem.fields }).toEqual({
    message: 'Name must not be empty.',
    code: 'VALIDATION_ERROR',
    fields: { name: 'Name must not be empty.', weekly: 'weekly.mon[0].start must be HH:mm.' },
  });
});
