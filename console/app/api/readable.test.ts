import { describe, expect, it } from 'vitest';
import { readableValidation } from './readable.js';

describe('validation errors as sentences', () => {
  it('names the field in words and keeps the rule', () => {
    expect(readableValidation('body.i_agree: must be true: accept the terms to sign up')).toBe(
      'Accept the terms to sign up.',
    );
    expect(
      readableValidation(
        "body.name: must be letters and digits with inner spaces or , . - '; body.email: must be an e-mail address",
      ),
    ).toBe("Name must be letters and digits with inner spaces or , . - '. Email must be an e-mail address.");
    expect(
      readableValidation(
        'body.thresholds.models.latency.upper_boundary: must be in [0.5, 1.0) for t_test, got 1.2',
      ),
    ).toBe('Upper boundary must be in [0.5, 1.0) for t_test, got 1.2.');
  });

  it('turns zod phrasing into plain words', () => {
    expect(readableValidation('body.name: Invalid input: expected string, received undefined')).toBe(
      'Name is missing.',
    );
    expect(readableValidation('body.title: Too small: expected string to have >=1 characters')).toBe(
      'Title needs at least 1 character.',
    );
    expect(readableValidation('query.per_page: Too big: expected number to be <=255')).toBe(
      'Per page is not valid (Too big: expected number to be <=255).',
    );
    expect(readableValidation('request body is larger than the limit')).toBe(
      'Request body is larger than the limit.',
    );
  });
});
