/** An answer the user should see: a status and a sentence, never a stack trace. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: string;
  constructor(statusCode: number, message: string, code: string) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
  }
}

export const notFound = (what: string) => new ApiError(404, `${what} not found`, 'NOT_FOUND');
