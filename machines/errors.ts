// What an invoked actor's error says, for the machines to keep in their context: the app's HTTP client
// rejects with an Error whose message the server wrote, and `field` when it named a form field.

/** The error's sentence, or the fallback when it is no Error (nothing the server explained). */
export const messageOf = (error: unknown, fallback = 'Something went wrong') =>
  error instanceof Error ? error.message : fallback;

/** The form field the server said the error is about, or null. */
export const fieldOf = (error: unknown) => {
  const field = (error as { field?: unknown } | null)?.field;
  return typeof field === 'string' ? field : null;
};

/** What went wrong, in a sentence, with the form field it is about when the server named one. */
export const problemOf = (error: unknown): { message: string; field?: string } => {
  const field = fieldOf(error);
  return { message: messageOf(error), ...(field === null ? {} : { field }) };
};

/** A refusal of a form: at the field the server named when the form has one by that name, else of the whole form. */
export function formProblem<Field extends string>(
  error: unknown,
  fields: readonly Field[],
): { field: Field | null; message: string } {
  const field = fieldOf(error);
  return { field: fields.find((known) => known === field) ?? null, message: messageOf(error) };
}

/** The params of an action that keeps an invoked actor's error: `{ type: 'assignError', params: errorParams }`. */
export const errorParams = ({ event }: { event: { error: unknown } }) => ({ error: event.error });
