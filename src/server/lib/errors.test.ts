import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';

describe('AppError', () => {
  it('takes only codes of the shared table, each bringing its own status', () => {
    expect(new AppError('CARD_DECLINED', 'Your card was declined.').status).toBe(402);
    expect(new AppError('EMAIL_TAKEN', 'In use', { email: 'In use' })).toMatchObject({
      status: 409,
      fields: { email: 'In use' },
    });
    // @ts-expect-error a misspelt code does not compile (npm run typecheck fails if it does)
    expect(() => new AppError('EMAIL_TAKN', 'In use')).not.toThrow();
  });
});
