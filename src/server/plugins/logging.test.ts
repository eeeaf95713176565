import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { censorSecrets, loggerOptions, secretKeys } from './logging.ts';
import { parseEnv } from '#server/env.ts';

/** A logger as the app builds it, writing its lines into an array. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  const options = loggerOptions(parseEnv({}), stream) as pino.LoggerOptions & {
    stream: Writable;
  };
  return { logger: pino(options, stream), lines };
}

describe('log lines never carry a secret or health data', () => {
  it('censors every secret key at the top and two levels below, in objects and arrays', () => {
    const given = {
      password: 'p-1',
      user: { email: 'a@example.com', ccnum: '4242424242424242' },
      form: { fields: { answers: { q1: 'yes' }, note: 'kept' } },
      headers: { cookie: 'pw_session=s-1', 'user-agent': 'ua' },
      list: [{ token: 't-1' }, 'plain'],
      count: 3,
    };
    const snapshot = structuredClone(given);
    expect(censorSecrets(given)).toEqual({
      password: '[redacted]',
      user: { email: 'a@example.com', ccnum: '[redacted]' },
      form: { fields: { answers: '[redacted]', note: 'kept' } },
      headers: { cookie: '[redacted]', 'user-agent': 'ua' },
      list: [{ token: '[redacted]' }, 'plain'],
      count: 3,
    });
    // The caller's object is left as it was.
    expect(given).toEqual(snapshot);
  });

  it('returns an object without secrets as it is, without copying it', () => {
    const given = { orderId: 7, status: 'PAID', nested: { deep: { deeper: { password: 'x' } } } };
    // Three levels down is beyond the walk: the same object comes back.
    expect(censorSecrets(given)).toBe(given);
  });

  it('every key is censored in a line written by the app logger, and in a child binding', () => {
    const { logger, lines } = capturingLogger();
    const values = Object.fromEntries([...secretKeys].map((key) => [key, `canary-${key}`]));
    logger.info({ ...values, nested: values, deeper: { nested: values } }, 'line');
    logger.child({ token: 'canary-binding' }).info('child line');
    const written = JSON.stringify(lines);
    expect(lines).toHaveLength(2);
    expect(written).not.toContain('canary-');
    expect(lines[0]).toMatchObject({ msg: 'line', password: '[redacted]' });
    expect(lines[1]).toMatchObject({ msg: 'child line', token: '[redacted]' });
  });
});
