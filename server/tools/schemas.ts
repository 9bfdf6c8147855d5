/** A tool call of a bot reply as the app shows it (the topic's messages, the approval route). */
export const stepSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['callId', 'tool', 'status', 'ms'],
  properties: {
    callId: { type: 'string' },
    tool: { type: 'string' },
    arguments: { description: 'the parsed JSON arguments (the raw text when the model sent something else)' },
    result: { type: 'string' },
    error: { type: 'string' },
    status: { type: 'string', enum: ['awaiting_approval', 'running', 'done', 'error', 'denied'] },
    ms: { type: 'integer' },
  },
} as const;
