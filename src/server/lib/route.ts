import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  FastifySchemaCompiler,
} from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import type { AppContext } from '#server/context.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import type { StaffSession } from '#server/features/staff/staff.service.ts';
import { AppError } from '#server/lib/errors.ts';
import { audit } from '#server/lib/staff-audit.ts';
import { sendCachedBody, type BodyCache } from '#server/lib/body-cache.ts';
import { requireOwnLeadsId, requireSession } from '#server/plugins/session.ts';
import { requireStaff } from '#server/plugins/staff-session.ts';
import { ErrorBodySchema, type ErrorBody } from '#shared/api.ts';
import { accessErrors, isV2, methodOf, type Access, type Endpoint } from '#shared/contract.ts';
import { anyCallErrors, errorStatus, type ErrorCode } from '#shared/errors.ts';
import { messages } from '#shared/wording.ts';

type Schema = z.core.$ZodType;
type Out<S> = S extends Schema ? z.output<S> : undefined;

type SessionFor<A extends Access> = A extends 'public'
  ? ActiveSession | null
  : A extends 'customer' | 'patient'
    ? ActiveSession
    : StaffSession;

export interface RouteInput<E extends Endpoint> {
  body: Out<E['body']>;
  params: Out<E['params']>;
  session: SessionFor<E['access']>;
  request: FastifyRequest;
  reply: FastifyReply;
  /**
   * Staff calls: writes this staff member's audit entry of a change, from this request's address,
   * in the transaction a service passes (`tx.db`), so that the entry commits or rolls back with the
   * change. For a service below staff, which cannot write to the audit log itself (the outbox's
   * retry); the others take a `StaffActor` and write it themselves (staff.service.ts's `auditAs`).
   */
  auditChange: E['access'] extends 'public' | 'customer' | 'patient' ? undefined : AuditChange;
}

/** What a staff member changed, for whom: the audit entry a change writes in its transaction. */
export interface ChangeNote {
  action: string;
  subjectType: string;
  subjectId?: string | number;
  customerId?: number;
}

type AuditChange = (tx: AppContext, note: ChangeNote) => Promise<void>;

/** A v1 answer with a message the handler words itself (most calls answer with an empty one). */
export class Answer<T> {
  constructor(
    readonly message: string,
    readonly data: T,
  ) {}
}

export function answer(message: string): Answer<undefined>;
export function answer<T>(message: string, data: T): Answer<T>;
export function answer<T>(message: string, data?: T): Answer<T | undefined> {
  return new Answer(message, data);
}

type DataIn<E extends Endpoint> = E extends { response: infer S extends Schema }
  ? z.input<S>
  : undefined;
type HandlerResult<E extends Endpoint> = E extends { response: Schema }
  ? DataIn<E> | Answer<DataIn<E>>
  : E extends { file: readonly string[] }
    ? FileAnswer
    : void | Answer<undefined>;

/** The answer of an endpoint declared with `file`: its bytes, sent as they are. */
export interface FileAnswer {
  mimeType: string;
  bytes: Buffer;
}

/** What a staff view writes to the audit log once it has answered: what was seen, and whose. */
export interface ViewedSubject {
  subjectType: string;
  subjectId?: string | number;
  customerId?: number;
}

export interface RouteOptions<E extends Endpoint> {
  /** One line for the API reference. */
  summary: string;
  /** The OpenAPI tag (the feature). */
  tag: string;
  /**
   * A staff view (an endpoint declared `view: true`): what it showed, written to the audit log as
   * a `view` once the handler answered. It may look up what the answer does not carry (the patient
   * a visit's conversation belongs to). A staff call that changes something is not audited here:
   * its service writes the entry in the transaction that makes the change, so there is never a
   * change without its entry, nor an entry for a change rolled back.
   */
  audit?: (input: RouteInput<E>, data: DataIn<E>) => ViewedSubject | Promise<ViewedSubject>;
  /**
   * A public answer that is the same for everyone: kept serialised and compressed in `cache`, by the
   * version of what it is made from (`version`: the catalogue's, catalog.version.ts) and the call's
   * params, and sent with `cacheControl` (see body-cache.ts). Only for `public` endpoints whose
   * handler does not read the session.
   */
  shared?: { cache: BodyCache; cacheControl: string; version: () => number | Promise<number> };
  /**
   * A customer's own answer, kept serialised and compressed in `cache` under the key `key` gives
   * once the session is checked. The key must name the customer and change whenever anything the
   * answer shows does (own-answers.ts); an error is never kept.
   */
  own?: { cache: BodyCache; key: (input: RouteInput<E>) => Promise<string> };
}

/**
 * Registers an endpoint from its shared declaration: validation of the body and params, the
 * access check, the handler, the v1 envelope or the v2 `{ data }`, a staff view's audit entry, and the
 * endpoint's description in the OpenAPI document (its errors included). Handlers return the data
 * alone, or `answer(message, data)` for a v1 call with a message of its own.
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  options: RouteOptions<E>,
  handler: (input: RouteInput<E>) => Promise<HandlerResult<E>>,
): void {
  const { shared, own } = options;
  if (shared && (endpoint.access !== 'public' || endpoint.body || endpoint.file))
    throw new Error(`${endpoint.path}: only a public call without a body can share its answer`);
  if (own && (endpoint.access !== 'patient' || shared || endpoint.file))
    throw new Error(`${endpoint.path}: only a customer's own call can keep its answer`);
  // Written after the handler, outside any transaction of its, this entry can only describe a
  // call that changed nothing: the declaration says which calls those are (`view`, contract.ts).
  if (options.audit && (!endpoint.view || !isStaff(endpoint.access)))
    throw new Error(
      `${endpoint.path}: route() audits only a staff view; a change writes its audit entry in its own transaction`,
    );
  // Under NODE_ENV=test, an AppError whose code the declaration does not list fails the call (a
  // 500 the test cannot mistake for the answer it expected), naming the code: the declaration,
  // the API reference and the browser's typed `failedWith` stay what the server really answers.
  const declared = app.ctx?.env.NODE_ENV === 'test' ? declaredErrors(endpoint) : undefined;
  const checked = declared
    ? async (input: RouteInput<E>) => {
        try {
          return await handler(input);
        } catch (error) {
          if (error instanceof AppError && !declared.has(error.code))
            throw new Error(
              `${endpoint.path} answered ${error.code}, which its declaration does not list (${[...declared].join(', ')})`,
              { cause: error },
            );
          throw error;
        }
      }
    : handler;
  app.route({
    method: methodOf(endpoint),
    url: endpoint.path,
    schema: schemaOf(endpoint, options),
    ...(endpoint.upload ? { validatorCompiler: uploadValidatorCompiler } : {}),
    handler: async (request, reply) => {
      const sharedKey = shared
        ? `${await shared.version()} ${JSON.stringify(request.params ?? {})}`
        : '';
      if (shared) {
        reply.header('Cache-Control', shared.cacheControl);
        const kept = shared.cache.get(sharedKey);
        if (kept) return sendCachedBody(request, reply, kept);
      }
      const session = guard(request, endpoint.access);
      const auditChange: AuditChange | undefined = isStaff(endpoint.access)
        ? (tx, note) => audit(tx, session as StaffSession, { ...note, ip: request.ip })
        : undefined;
      const input = {
        body: request.body,
        params: request.params,
        session,
        request,
        reply,
        auditChange,
      } as RouteInput<E>;
      const ownKey = own ? await own.key(input) : '';
      const ownKept = own?.cache.get(ownKey);
      if (ownKept) return sendCachedBody(request, reply, ownKept);
      const result = await checked(input);
      const { message, data } =
        result instanceof Answer
          ? result
          : { message: endpoint.message ?? '', data: result as DataIn<E> };
      if (options.audit) {
        const seen = await options.audit(input, data as DataIn<E>);
        await audit(app.ctx, input.session as StaffSession, {
          action: 'view',
          ...seen,
          ip: request.ip,
        });
      }
      if (endpoint.file) {
        const file = result as unknown as FileAnswer;
        return reply.type(file.mimeType).send(file.bytes);
      }
      const payload = envelope(endpoint, message, data);
      const keep = shared
        ? { cache: shared.cache, key: sharedKey }
        : own && { cache: own.cache, key: ownKey };
      if (!keep) return payload;
      // Serialised as any answer of this call is (checked against its schema), then kept.
      const kept = keep.cache.set(
        keep.key,
        reply.serialize(payload) as string,
        'application/json; charset=utf-8',
      );
      return sendCachedBody(request, reply, kept);
    },
  });
}

/** The data in the call's envelope: v2 `{ data }`, or v1's status and message. */
function envelope(endpoint: Endpoint, message: string, data: unknown): unknown {
  if (isV2(endpoint)) return { data };
  if (endpoint.envelope === 'message') return { status: 'SUCCESS', message: data };
  if (endpoint.envelope === 'flat') return { status: 'SUCCESS', ...(data as object) };
  return data === undefined ? { status: 'SUCCESS', message } : { status: 'SUCCESS', message, data };
}

/** An upload's body is read by its handler part by part; its declared fields only describe it. */
const uploadValidatorCompiler: FastifySchemaCompiler<FastifySchema> = (route) =>
  route.httpPart === 'body'
    ? () => true
    : validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);

function guard(request: FastifyRequest, access: Access): ActiveSession | StaffSession | null {
  switch (access) {
    case 'public':
      return request.session;
    case 'customer':
      return requireSession(request);
    case 'patient':
      return requireOwnLeadsId(request, leadsIdOf(request.body));
    case 'staff':
      return requireStaff(request);
    default:
      return requireStaff(request, access);
  }
}

function leadsIdOf(body: unknown): string {
  const leadsId = (body as { leads_id?: unknown } | undefined)?.leads_id;
  return typeof leadsId === 'string' ? leadsId : '';
}

function schemaOf<E extends Endpoint>(endpoint: E, options: RouteOptions<E>): FastifySchema {
  const success = endpoint.file
    ? fileResponse(endpoint.file)
    : isV2(endpoint)
      ? z.object({ data: endpoint.response ?? z.undefined() })
      : endpoint.envelope === 'message' && endpoint.response
        ? z.object({ status: z.literal('SUCCESS'), message: endpoint.response })
        : endpoint.envelope === 'flat' && endpoint.response
          ? z.intersection(z.object({ status: z.literal('SUCCESS') }), endpoint.response)
          : endpoint.response
            ? z.object({
                status: z.literal('SUCCESS'),
                message: z.string(),
                data: endpoint.response,
              })
            : z.object({ status: z.literal('SUCCESS'), message: z.string() });
  const schema: Record<string, unknown> = {
    tags: [options.tag],
    summary: options.summary,
    operationId: operationIdOf(endpoint),
    response: { 200: success, ...errorResponses(endpoint) },
  };
  schema.security =
    endpoint.access === 'public'
      ? []
      : [isStaff(endpoint.access) ? { staffSession: [] } : { customerSession: [] }];
  if (endpoint.body) schema.body = endpoint.body;
  // Moved into the request body's JSON schema by `withBodyExample` (app.ts's OpenAPI transform).
  if (endpoint.example !== undefined) schema[bodyExampleKey] = endpoint.example;
  if (endpoint.upload) schema.consumes = ['multipart/form-data'];
  if (endpoint.params) schema.params = endpoint.params;
  return schema;
}

/** A file answer in the API reference: its bytes, as each media type it can be. */
const fileResponse = (mediaTypes: readonly string[]) => ({
  description: 'The file itself.',
  content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: z.file() }])),
});

const isStaff = (access: Access) =>
  access === 'staff' || access === 'provider' || access === 'operations';

/** `POST /v2/ecom/add-product` → `postV2EcomAddProduct`: unique, because paths are. */
export function operationIdOf(endpoint: Endpoint): string {
  const words = endpoint.path.split(/[^a-zA-Z0-9]+/).filter(Boolean);
  return [methodOf(endpoint).toLowerCase(), ...words.map(capitalise)].join('');
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The codes an endpoint may answer with: its own, its access's and any call's. */
function declaredErrors(endpoint: Endpoint): Set<ErrorCode> {
  const codes = new Set<ErrorCode>([
    ...endpoint.errors,
    ...accessErrors(endpoint.access),
    ...anyCallErrors,
  ]);
  if (!endpoint.body && !endpoint.params) codes.delete('VALIDATION');
  return codes;
}

/** One response per status the endpoint can fail with, its codes named in the description. */
function errorResponses(endpoint: Endpoint): Record<number, Schema> {
  const codes = declaredErrors(endpoint);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorStatus[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => {
      const example = errorExample(list);
      return [
        status,
        z.extend(ErrorBodySchema, {}).register(z.globalRegistry, {
          description: `Error body; \`code\` is one of ${list.join(', ')}.`,
          ...(example ? { examples: [example] } : {}),
        }),
      ];
    }),
  );
}

/**
 * The words the app answers these codes with wherever they come from (the error handler, the
 * session guards, the log-in); a status whose codes are all a call's own has no example here.
 */
const exampleMessages: Partial<Record<ErrorCode, string>> = {
  VALIDATION: 'Email is required',
  UNAUTHENTICATED: messages.unauthorized,
  STAFF_UNAUTHENTICATED: 'Please log in to the staff console.',
  FORBIDDEN: messages.forbidden,
  CROSS_SITE: 'This request must come from the Pairwell site.',
  NOT_FOUND: messages.notFound,
  TOO_MANY_ATTEMPTS: messages.tooManyRequests,
  INTERNAL: messages.internalError,
  UNAVAILABLE: messages.serviceUnavailable,
};

/** An error body as the app sends it, for the API reference. */
function errorExample(codes: readonly ErrorCode[]): ErrorBody | undefined {
  const code = codes.find((candidate) => exampleMessages[candidate]);
  if (!code) return undefined;
  return {
    status: 'FAILURE',
    code,
    message: exampleMessages[code] ?? '',
    ...(code === 'VALIDATION' ? { fields: { email: 'Email is required' } } : {}),
    requestId: 'req-3f9c2a7d1b',
  };
}

const bodyExampleKey = 'x-body-example';

/**
 * The OpenAPI document's transform after fastify-type-provider-zod's: a call's request example
 * (its `example` in shared/) goes into its body's schema, where @fastify/swagger shows it as the
 * request's example.
 */
export function withBodyExample<T extends { schema?: object | undefined }>(transformed: T): T {
  // A route without a schema (the reference's own files, a test's route) has nothing to move.
  if (!transformed.schema) return transformed;
  const { [bodyExampleKey]: example, ...schema } = transformed.schema as Record<string, unknown>;
  const body = schema.body;
  if (example !== undefined && typeof body === 'object' && body !== null)
    schema.body = { ...body, examples: [example] };
  return { ...transformed, schema };
}
