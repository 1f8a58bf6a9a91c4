import { defineEvent, z } from '@atrium/sdk/server';

/** Sent only to one subscription by "Send test event"; declared so its schema is in the catalogue. */
export const webhookTested = defineEvent({
  topic: 'integrations.webhook.tested',
  schemaId: 'integrations.webhook-test',
  version: '1.0.0',
  description: 'A test event sent to one subscription by "Send test event" (never to others).',
  data: z.object({ subscription_id: z.string(), message: z.string() }),
});

export const INTEGRATIONS_EVENTS = [webhookTested];
