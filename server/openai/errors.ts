import type { FastifyError } from 'fastify';
import { ApiError } from '../errors';
import type { Refusal } from '../replies/bots';

/** OpenAI's error JSON: what every answer of `/v1/…` that is not a success looks like. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; code: string | null; param: string | null };
}

/** An error `/v1/…` answers in OpenAI's shape. */
export class OpenAiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly type: string,
    readonly code: string,
    readonly param: string | null = null,
  ) {
    super(message);
  }

  get body(): OpenAiErrorBody {
    return { error: { message: this.message, type: this.type, code: this.code, param: this.param } };
  }
}

export const invalidApiKey = () =>
  new OpenAiError(
    401,
    'Incorrect API key provided. Create a key in your Profile in Parley and send it as "Authorization: Bearer <key>".',
    'invalid_request_error',
    'invalid_api_key',
  );

export const suspendedKeyHolder = () =>
  new OpenAiError(
    401,
    'The member this API key belongs to is suspended in its organization.',
    'invalid_request_error',
    'invalid_api_key',
  );

export const apiAccessOff = () =>
  new OpenAiError(
    403,
    'API access is turned off for this organization. Ask an administrator of the organization.',
    'permission_error',
    'api_access_disabled',
  );

export const modelNotFound = (model: string) =>
  new OpenAiError(
    404,
    `The model \`${model}\` does not exist or you do not have access to it. GET /v1/models lists yours.`,
    'invalid_request_error',
    'model_not_found',
    'model',
  );

/** Two or more bots the key may use are named `model` but for case: only an id tells them apart. */
export const modelAmbiguous = (model: string, ids: string[]) =>
  new OpenAiError(
    400,
    `${ids.length} bots are named \`${model}\` (case aside): name the one you mean by its id (${ids.join(', ')}). GET /v1/models lists ids and names.`,
    'invalid_request_error',
    'model_ambiguous',
    'model',
  );

/** A model the key's holder cannot use now (`replies/bots` `runnable`), in OpenAI's words. */
export function modelRefused(botName: string, refusal: Refusal, retired = false): OpenAiError {
  if (refusal === 'not_allowed' && retired)
    return new OpenAiError(
      403,
      `${botName} was retired by an administrator and answers no more.`,
      'permission_error',
      'model_retired',
      'model',
    );
  if (refusal === 'not_allowed')
    return new OpenAiError(
      403,
      `${botName} is only for some groups of this organization, and you are in none of them.`,
      'permission_error',
      'model_not_allowed',
      'model',
    );
  if (refusal === 'shutting_down')
    return new OpenAiError(
      503,
      'This server is restarting. Try again in a moment.',
      'server_error',
      'shutting_down',
    );
  return new OpenAiError(
    503,
    `${botName} is not available right now.`,
    'server_error',
    'model_not_available',
    'model',
  );
}

export const invalidRequest = (message: string, param: string | null = null) =>
  new OpenAiError(400, message, 'invalid_request_error', 'invalid_request_error', param);

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Any error of a `/v1/…` route in OpenAI's shape, with its status. */
export function toOpenAiError(error: unknown): OpenAiError {
  if (error instanceof OpenAiError) return error;
  const failure = error as FastifyError & { validation?: ValidationIssue[] };
  if (failure.validation?.length) {
    const [issue] = failure.validation;
    const param =
      (issue.params.missingProperty as string | undefined) ??
      (issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || null);
    const message =
      issue.keyword === 'required'
        ? `Missing required parameter: '${param}'.`
        : `Invalid value for '${param ?? 'body'}': ${issue.message ?? 'not valid'}.`;
    return invalidRequest(message, param);
  }
  if (error instanceof ApiError) {
    if (error.code === 'INSUFFICIENT_BALANCE')
      return new OpenAiError(
        402,
        'You exceeded your current quota: your Parley balance does not cover this model’s price. Top up your balance.',
        'insufficient_quota',
        'insufficient_quota',
      );
    if (error.code === 'BUDGET_REACHED')
      return new OpenAiError(402, error.message, 'insufficient_quota', 'insufficient_quota');
    if (error.code === 'RATE_LIMITED')
      return new OpenAiError(429, error.message, 'requests', 'rate_limit_exceeded');
    if (error.code === 'BOT_NOT_ALLOWED')
      return new OpenAiError(403, error.message, 'permission_error', 'model_not_allowed', 'model');
    if (error.statusCode === 503)
      return new OpenAiError(503, error.message, 'server_error', error.code.toLowerCase());
    if (error.statusCode >= 500) return serverError();
    return new OpenAiError(
      error.statusCode,
      error.message,
      'invalid_request_error',
      error.code.toLowerCase(),
      error.field ?? null,
    );
  }
  const status = failure.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const message =
      failure.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || failure.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
        ? 'The request body is not valid JSON.'
        : failure.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? 'The request is too large.'
          : failure.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'Send the request as JSON (Content-Type: application/json).'
            : failure.message;
    return new OpenAiError(status, message, 'invalid_request_error', 'invalid_request_error');
  }
  return serverError();
}

export const serverError = () =>
  new OpenAiError(
    500,
    'Something went wrong on our side. Please try again.',
    'server_error',
    'internal_error',
  );
