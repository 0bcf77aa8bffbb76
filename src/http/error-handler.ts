import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isPgError } from '../db/errors.js';
import { lingerOnClose } from './connections.js';
import type { ErrorCode } from './error-codes.js';
import { AppError } from './errors.js';
import type { ErrorBody } from './schemas.js';

interface Answer {
  status: number;
  body: ErrorBody;
}

function answer(status: number, code: ErrorCode, message: string, details?: unknown): Answer {
  const error: ErrorBody['error'] = { code, message };
  if (details !== undefined) error.details = details;
  return { status, body: { error } };
}

/** Fastify's own client errors, by their code, with the stable code we answer. */
const FRAMEWORK_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'invalid_json',
    message: 'The request body is not valid JSON',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'invalid_json',
    message: 'The request body is empty but declared as JSON',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'payload_too_large',
    message: 'The request body is larger than the server accepts',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'The Content-Type of the request body is not supported here',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'invalid_content_length',
    message: 'The Content-Length header does not match the body',
  },
  FST_ERR_BAD_URL: { status: 400, code: 'invalid_url', message: 'The request URL is malformed' },
  FST_ERR_MAX_PARAM_LENGTH: {
    status: 400,
    code: 'invalid_url',
    message: 'A path parameter is too long',
  },
  FST_ERR_ASYNC_CONSTRAINT: {
    status: 400,
    code: 'invalid_request',
    message: 'The request could not be routed',
  },
  FST_ERR_NOT_FOUND: { status: 404, code: 'route_not_found', message: 'No route for this request' },
  // @fastify/multipart, for the upload routes.
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    status: 400,
    code: 'multipart_required',
    message: 'The body is not multipart/form-data',
  },
  FST_REQ_FILE_TOO_LARGE: {
    status: 413,
    code: 'payload_too_large',
    message: 'The file is larger than the server accepts',
  },
  FST_PARTS_LIMIT: {
    status: 400,
    code: 'invalid_multipart',
    message: 'The multipart body has more parts than the route takes',
  },
  FST_FILES_LIMIT: {
    status: 400,
    code: 'invalid_multipart',
    message: 'The multipart body has more files than the route takes',
  },
  FST_FIELDS_LIMIT: {
    status: 400,
    code: 'invalid_multipart',
    message: 'The multipart body has more fields than the route takes',
  },
  FST_PROTO_VIOLATION: {
    status: 400,
    code: 'invalid_multipart',
    message: 'A multipart part has a forbidden name',
  },
  FST_INVALID_JSON_FIELD_ERROR: {
    status: 400,
    code: 'invalid_multipart',
    message: 'A multipart field declared as JSON is not valid JSON',
  },
};

/** Other client errors of the framework and its plugins, by status; any other 4xx is a 400. */
const CLIENT_ERRORS_BY_STATUS: Record<number, { code: ErrorCode; message: string }> = {
  404: { code: 'route_not_found', message: 'No route for this request' },
  408: { code: 'request_timeout', message: 'The request was not received in time' },
  413: { code: 'payload_too_large', message: 'The request body is larger than the server accepts' },
  415: {
    code: 'unsupported_media_type',
    message: 'The Content-Type of the request body is not supported here',
  },
  431: { code: 'headers_too_large', message: 'The request headers are larger than allowed' },
};

/** PostgreSQL errors caused by input the schemas let through, by SQLSTATE. */
const DATA_ERRORS: Record<string, string> = {
  '22001': 'A value is too long',
  '22003': 'A number is out of range',
  '22007': 'A date or time is malformed',
  '22008': 'A date or time is out of range',
  '22P02': 'A value has the wrong format',
  '22021': 'A value contains a character the database cannot store',
  '22P05': 'A value contains a character the database cannot store',
  '54000': 'A value is too large',
};

interface ValidationIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
  /** Named by the schema that failed (see `schema-error-codes.ts`). */
  code?: ErrorCode;
}

/** The message of one issue: the allowed values when the schema lists them. */
function issueMessage(issue: ValidationIssue): string {
  if (issue.keyword === 'additionalProperties') return 'is not a known property';
  const allowed = issue.params.allowedValues;
  if (Array.isArray(allowed)) return `must be one of: ${allowed.map(String).join(', ')}`;
  return issue.message ?? 'is invalid';
}

function describeValidation(error: FastifyError): Answer {
  const location = error.validationContext ?? 'request';
  const issues = (error.validation ?? []).map((raw) => {
    const issue = raw as ValidationIssue;
    const property =
      issue.keyword === 'additionalProperties'
        ? `/${String(issue.params.additionalProperty)}`
        : issue.keyword === 'required'
          ? `/${String(issue.params.missingProperty)}`
          : issue.keyword === 'discriminator'
            ? `/${String(issue.params.tag)}`
            : '';
    return { path: `${issue.instancePath}${property}` || '/', message: issueMessage(issue) };
  });
  const first = issues[0];
  const message = first
    ? `Invalid ${location}: ${first.path === '/' ? location : first.path} ${first.message}`
    : `Invalid ${location}`;
  const code = (error.validation?.[0] as ValidationIssue | undefined)?.code ?? 'validation_failed';
  return answer(400, code, message, { location, issues });
}

/** Maps anything thrown while serving a request to a status and an Error body. */
export function toAnswer(error: unknown): Answer {
  if (error instanceof AppError) {
    return answer(error.status, error.code, error.message, error.details);
  }
  if (isPgError(error) && error.code in DATA_ERRORS) {
    return answer(400, 'invalid_value', DATA_ERRORS[error.code] ?? 'Invalid value');
  }
  const fastifyError = error as Partial<FastifyError> | null;
  if (fastifyError?.validation !== undefined) {
    return describeValidation(fastifyError as FastifyError);
  }
  const known = fastifyError?.code ? FRAMEWORK_ERRORS[fastifyError.code] : undefined;
  if (known) return answer(known.status, known.code, known.message);
  const status = fastifyError?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // The status comes with the code, so that each code keeps the one status the catalog gives it.
    const byStatus = CLIENT_ERRORS_BY_STATUS[status];
    if (byStatus) return answer(status, byStatus.code, byStatus.message);
    return answer(400, 'invalid_request', 'The request could not be processed');
  }
  return answer(500, 'internal_error', 'An unexpected error occurred; it has been logged');
}

function send(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  const { status, body } = toAnswer(error);
  // The client may still be sending the body: let it finish, so that it reads this answer.
  lingerOnClose(request.raw);
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
  } else if (!(error instanceof AppError)) {
    request.log.info({ err: error, code: body.error.code }, 'request refused');
  }
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => send(request, reply, error));
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send(
        answer(
          404,
          'route_not_found',
          `No route for ${request.method} ${request.url.split('?')[0]}`,
        ).body,
      ),
  );
}

/** For fastify's `frameworkErrors` option: errors raised before routing. */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  send(request, reply, error);
}
