import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '#shared/api.ts';

/**
 * Issue 15: every answer an API test receives is checked against the OpenAPI document the app
 * serves: its status must be described for that operation, and its JSON body must match the
 * schema described for that status, error bodies included. What does not match is collected and
 * reported when the test app closes, so the document can never drift from the answers.
 */
export interface Conformance {
  /** Each answer that did not match the document, one line each. */
  problems: string[];
  /** How many answers were checked. */
  checked: number;
}

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}
type Document = { paths: Record<string, Record<string, Operation>> };

export function checkAnswersAgainstOpenApi(app: FastifyInstance): Conformance {
  const conformance: Conformance = { problems: [], checked: 0 };
  let document: Document | undefined;
  const validators = new Map<string, ValidateFunction | string | null>();
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats.default(ajv);

  const validatorFor = (method: string, url: string, status: number) => {
    const key = `${method} ${url} ${status}`;
    let validator = validators.get(key);
    if (validator !== undefined) return validator;
    document ??= app.swagger() as unknown as Document;
    const operation = document.paths[openApiPath(url)]?.[method.toLowerCase()];
    const response = operation?.responses?.[String(status)] ?? operation?.responses?.default;
    const schema = response?.content?.['application/json']?.schema;
    // A route the document leaves out (a test's own route, the reference's static files) is not
    // an API call; openapi.test.ts checks that every call registered through route() is in it.
    if (!operation) validator = null;
    else if (!response) validator = `${key}: the status is not described`;
    else if (!schema) validator = `${key}: no JSON body is described for this status`;
    else validator = ajv.compile(schema);
    validators.set(key, validator);
    return validator;
  };

  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.routeOptions.url;
    if (!url?.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}/docs`)) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    // Files (photo IDs, receipts) and compressed bodies are not JSON to read here.
    if (!type.startsWith('application/json') || reply.getHeader('content-encoding')) return payload;
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload : null;
    if (text === null) return payload;
    let validator: ValidateFunction | string | null;
    try {
      validator = validatorFor(request.method, url, reply.statusCode);
    } catch (error) {
      // Never the answer's problem: the test sees the answer it would have had, and close() this.
      conformance.problems.push(
        `${request.method} ${url}: the document could not be read (${String(error)})`,
      );
      return payload;
    }
    if (validator === null) return payload;
    conformance.checked += 1;
    if (typeof validator === 'string') {
      conformance.problems.push(validator);
      return payload;
    }
    let body: unknown;
    try {
      body = JSON.parse(text.toString());
    } catch {
      conformance.problems.push(`${request.method} ${url} ${reply.statusCode}: not JSON`);
      return payload;
    }
    if (!validator(body))
      conformance.problems.push(
        `${request.method} ${url} ${reply.statusCode}: ${ajvMessage(validator)} in ${text
          .toString()
          .slice(0, 300)}`,
      );
    return payload;
  });
  return conformance;
}

/** Fastify's `/lapi/orders/:number` is OpenAPI's `/lapi/orders/{number}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const ajvMessage = (validator: ValidateFunction) =>
  (validator.errors ?? [])
    .map((error) => `${error.instancePath || '(body)'} ${error.message ?? ''}`)
    .join('; ');
