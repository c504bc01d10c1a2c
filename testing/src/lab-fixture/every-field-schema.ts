import type { RequestedSchema } from '@parley/core/form';

/**
 * A form with every field kind of the requestedSchema subset, including the deprecated `enumNames`
 * choice (which has no builder, so the form is written as a raw schema).
 */
export const EVERY_FIELD_SCHEMA: RequestedSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Full name', description: 'As on your ID', minLength: 2, maxLength: 40 },
    email: { type: 'string', title: 'Email', format: 'email' },
    website: { type: 'string', title: 'Website', format: 'uri' },
    pickup: { type: 'string', title: 'Pickup date', format: 'date' },
    meeting: { type: 'string', title: 'Meeting time', format: 'date-time' },
    weight: { type: 'number', title: 'Weight (kg)', minimum: 0.5, maximum: 30 },
    boxes: { type: 'integer', title: 'Boxes', minimum: 1, maximum: 5, default: 1 },
    fragile: { type: 'boolean', title: 'Fragile', description: 'Handle with care', default: false },
    size: { type: 'string', title: 'Size', enum: ['S', 'M', 'L'] },
    color: {
      type: 'string',
      title: 'Color',
      oneOf: [
        { const: 'r', title: 'Red' },
        { const: 'g', title: 'Green' },
      ],
    },
    speed: { type: 'string', title: 'Speed', enum: ['std', 'exp'], enumNames: ['Standard', 'Express'] },
    days: {
      type: 'array',
      title: 'Days',
      items: { type: 'string', enum: ['mon', 'tue', 'wed'] },
      minItems: 1,
      maxItems: 2,
    },
    extras: {
      type: 'array',
      title: 'Extras',
      items: {
        anyOf: [
          { const: 'wrap', title: 'Gift wrap' },
          { const: 'card', title: 'Greeting card' },
        ],
      },
      default: ['card'],
    },
  },
  required: ['name', 'email', 'pickup', 'meeting', 'weight', 'boxes', 'size', 'color', 'speed', 'days'],
};
