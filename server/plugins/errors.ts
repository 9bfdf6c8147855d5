import type { FastifyError, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors';

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A validation failure in words a person can act on. */
function describe(issue: ValidationIssue): string {
  const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'the request';
  switch (issue.keyword) {
    case 'required':
      return `Please fill in ${issue.params.missingProperty}.`;
    case 'additionalProperties':
      return `Unknown field: ${issue.params.additionalProperty}.`;
    case 'minLength':
      return issue.params.limit === 1
        ? `Please fill in ${field}.`
        : `${field} must be at least ${issue.params.limit} characters.`;
    case 'maxLength':
      return `${field} must be at most ${issue.params.limit} characters.`;
    case 'pattern':
    case 'format':
      return `${field} is not valid.`;
    case 'type':
      return issue.instancePath
        ? `${field} must be a ${issue.params.type}.`
        : 'The request body must be a JSON object.';
    default:
      return `${field} ${issue.message ?? 'is not valid'}.`;
  }
}

/** Every error leaves as `{ error, code, field? }`: 4xx with a sentence for bad input, 500 only for our own faults. */
export const errorsPlugin = fp(async (app) => {
  app.setErrorHandler((error: FastifyError & { validation?: ValidationIssue[] }, request, reply) => {
    if (error.validation?.length) {
      const [issue] = error.validation;
      const field =
        (issue.params.missingProperty as string | undefined) ?? issue.instancePath.split('/')[1] ?? undefined;
      return reply
        .code(400)
        .send({ error: describe(issue), code: 'INVALID_INPUT', ...(field ? { field } : {}) });
    }
    // Our own answers go out as written, a 503 of a draining node included.
    if (error instanceof ApiError) {
      return reply
        .code(error.statusCode)
        .send({ error: error.message, code: error.code, ...(error.field ? { field: error.field } : {}) });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'The request body is not valid JSON.'
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'The request is too large.'
            : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
              ? 'Send the request as JSON.'
              : error.message;
      return reply.code(status).send({
        error: message,
        code: error.code?.startsWith('FST_') ? `HTTP_${status}` : (error.code ?? `HTTP_${status}`),
      });
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(500)
      .send({ error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' });
  });
}) as FastifyPluginAsync;
