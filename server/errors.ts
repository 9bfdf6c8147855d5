/** An answer the user should see: a status and a sentence, never a stack trace. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: string;
  /** The form field the answer is about, so a form can show it next to that field. */
  readonly field: string | undefined;
  constructor(statusCode: number, message: string, code: string, field?: string) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    this.field = field;
  }
}

export const notFound = (what: string) => new ApiError(404, `${what} not found`, 'NOT_FOUND');
