import fastJson, { type Schema as JsonSchema } from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import * as z from 'zod';

/**
 * Answers are written by Fastify's own fast serialiser (fast-json-stringify), compiled once per
 * call and status from the JSON Schema of the call's shared zod schema: the same schema the API
 * reference shows. zod checking every answer before writing it cost 12% of the catalogue's time
 * and 24% of a long order history's (issue 14).
 *
 * With `checkAnswers` (the tests), each answer is also checked against the zod schema first and a
 * mismatch fails the call, so every test that calls the API checks what it answered, and it checks
 * the bytes the fast serialiser wrote.
 */
export function fastSerializerCompiler(checkAnswers: boolean): FastifySerializerCompiler<unknown> {
  return ({ schema, method, url }) => {
    const zodSchema = schema as z.ZodType;
    const stringify = fastJson(
      z.toJSONSchema(zodSchema, {
        target: 'draft-7',
        io: 'output',
        unrepresentable: 'any',
      }) as JsonSchema,
    );
    if (!checkAnswers) return (data) => stringify(data);
    return (data) => {
      const checked = z.safeEncode(zodSchema, data);
      if (!checked.success)
        throw new ResponseSerializationError(method, url, { cause: checked.error });
      return stringify(data);
    };
  };
}
