import { stepSchema } from '../tools/schemas';

// The response schemas of the topics' routes (and of a share continued as a topic).

/** The bot of a topic or a share. */
export const botRefSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['_id', 'name', 'platform'],
  properties: {
    _id: { type: 'string' },
    name: { type: 'string' },
    platform: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: { name: { type: 'string' } },
    },
  },
} as const;

const summaryProperties = {
  _id: { type: 'string' },
  title: { type: 'string' },
  bot: botRefSchema,
  lastMessage: { type: ['string', 'null'] },
  preview: { type: ['string', 'null'], description: 'the newest message as plain text, shortened' },
  streaming: { type: 'boolean', description: 'a reply is being written' },
  project: { type: ['string', 'null'], description: 'its project, while its member may read it' },
  pinned: { type: 'boolean', description: 'leads the list' },
  archived: { type: 'boolean', description: 'left out of the lists (not of a search)' },
  createdAt: { type: 'string' },
  updatedAt: { type: 'string' },
} as const;
const summaryRequired = [
  '_id',
  'title',
  'bot',
  'lastMessage',
  'preview',
  'streaming',
  'project',
  'pinned',
  'archived',
  'createdAt',
  'updatedAt',
] as const;

/** A topic in the list; a search's carry the snippet of their best matching message. */
const topicSummarySchema = {
  type: 'object',
  additionalProperties: false,
  required: summaryRequired,
  properties: {
    ...summaryProperties,
    snippet: {
      type: 'object',
      additionalProperties: false,
      required: ['text', 'highlights'],
      properties: {
        text: { type: 'string' },
        highlights: {
          type: 'array',
          description: '[start, end) of each matched word in text',
          items: { type: 'array', items: { type: 'integer' } },
        },
      },
    },
  },
} as const;

/**
 * `GET /api/v1/topic`: an array (the original call), or a page `{ items, next }` with `cursor` or `q`.
 * The serializer picks the branch by validating the answer against each, so an undeclared property
 * anywhere in it is a 500 here, not a property silently left out.
 */
export const topicListSchema = {
  anyOf: [
    { type: 'array', items: topicSummarySchema },
    {
      type: 'object',
      additionalProperties: false,
      required: ['items', 'next'],
      properties: {
        items: { type: 'array', items: topicSummarySchema },
        next: { type: ['string', 'null'] },
      },
    },
  ],
} as const;

/** A member's thumbs on a reply (`PUT …/message/:messageId/feedback` answers it too); null when none. */
export const feedbackSchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['rating', 'reason'],
  properties: {
    rating: { type: 'string', enum: ['up', 'down'] },
    reason: { type: 'string', description: 'why, in the member’s words; empty when they gave none' },
  },
} as const;

const messageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['_id', 'parent', 'role', 'text', 'status', 'createdAt'],
  properties: {
    _id: { type: 'string' },
    parent: { type: ['string', 'null'] },
    role: { type: 'string', enum: ['user', 'bot'] },
    text: { type: 'string' },
    status: { type: 'string', enum: ['complete', 'streaming', 'stopped', 'interrupted', 'failed'] },
    bot: { type: 'string', description: 'the bot that wrote a reply' },
    model: { type: 'string', description: 'the catalogue model that wrote a reply' },
    cost: { type: 'number', description: 'what a complete bot reply was charged' },
    files: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['_id', 'name', 'type', 'size'],
        properties: {
          _id: { type: 'string' },
          name: { type: 'string' },
          type: { type: 'string' },
          size: { type: 'number' },
          removed: { type: 'boolean', description: 'its owner deleted it since' },
        },
      },
    },
    citations: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['n', 'name', 'snippet'],
        properties: {
          n: { type: 'integer' },
          fileId: { type: 'string' },
          url: { type: 'string', description: 'a web page the search found' },
          name: { type: 'string' },
          page: { type: 'integer' },
          snippet: { type: 'string' },
        },
      },
    },
    steps: { type: 'array', items: stepSchema },
    feedback: { ...feedbackSchema, description: 'a reply’s: the member’s own thumbs on it, or null' },
    createdAt: { type: 'string' },
  },
} as const;

const topicProperties = {
  ...summaryProperties,
  head: { type: ['string', 'null'], description: 'the last message of the branch on screen' },
  model: {
    type: ['string', 'null'],
    description: 'the catalogue model its replies are written by: its choice, else the bot’s default',
  },
  parameters: {
    type: 'object',
    additionalProperties: false,
    description: 'its temperature and maximum reply length, where its bot allows them',
    properties: { temperature: { type: 'number' }, maxTokens: { type: 'integer' } },
  },
  messages: { type: 'array', items: messageSchema },
} as const;

/** A topic with its message tree. */
export const topicSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...summaryRequired, 'head', 'model', 'parameters', 'messages'],
  properties: topicProperties,
} as const;

/** `PATCH /api/v1/topic/:id`: the topic with its tree after switching branch, its summary after a rename. */
export const changedTopicSchema = {
  type: 'object',
  additionalProperties: false,
  required: summaryRequired,
  properties: topicProperties,
} as const;
