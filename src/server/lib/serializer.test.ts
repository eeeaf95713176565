import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { fastSerializerCompiler } from './serializer.ts';

const Answer = z.object({
  id: z.number().int(),
  name: z.string(),
  note: z.string().nullable(),
  tracking: z.object({ carrier: z.string(), number: z.string() }).optional(),
  status: z.enum(['ACTIVE', 'PAUSED']),
  lines: z.array(z.union([z.object({ kind: z.literal('a'), a: z.number() }), z.string()])),
});

async function appAnswering(answer: unknown, checkAnswers: boolean) {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(fastSerializerCompiler(checkAnswers));
  app.get('/thing', { schema: { response: { 200: Answer } } }, async () => answer);
  await app.ready();
  return app;
}

describe('the fast serialiser', () => {
  const valid = {
    id: 7,
    name: 'Sleep "Gummies" <b>',
    note: null,
    status: 'PAUSED',
    lines: [{ kind: 'a', a: 1.5 }, 'two'],
  };

  it('writes what JSON.stringify writes for an answer that fits the schema', async () => {
    for (const check of [true, false]) {
      const app = await appAnswering(valid, check);
      const response = await app.inject({ method: 'GET', url: '/thing' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(JSON.stringify(valid));
      await app.close();
    }
  });

  it('leaves out what the schema does not name, as zod did', async () => {
    const app = await appAnswering({ ...valid, password_hash: 'secret' }, false);
    const response = await app.inject({ method: 'GET', url: '/thing' });
    expect(response.body).not.toContain('secret');
    expect(response.json()).toEqual(valid);
    await app.close();
  });

  it('under tests, an answer that does not fit its schema fails the call', async () => {
    const app = await appAnswering({ ...valid, id: 'seven' }, true);
    const response = await app.inject({ method: 'GET', url: '/thing' });
    expect(response.statusCode).toBe(500);
    await app.close();
  });
});
