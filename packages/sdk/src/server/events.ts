import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Queryable } from './define-server-plugin.js';

/**
 * Domain events, written to one outbox (`core.event_outbox`) in the caller's own transaction: the
 * event exists exactly when the change it reports was committed. Delivery (webhooks, integrations,
 * notifications) reads the outbox; a module only declares and emits.
 *
 * The envelope is the previous portal's: `{event_id, event_date, schema_id, version, topic,
 * triggering_user, data}`. Topics are `category.entity.past-tense-action` (`claims.claim.created`),
 * the category being the declaring plugin's id. Each (schema id, version) has one JSON Schema,
 * derived from the zod schema the event is declared with.
 */

/** `category.entity.action`: three lowercase, dash-separated segments. */
const TOPIC = /^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/;
const VERSION = /^[0-9]+\.[0-9]+\.[0-9]+$/;

export interface EventDefinition<Schema extends z.ZodType = z.ZodType> {
  readonly kind: 'event-definition';
  readonly topic: string;
  /** Names the data's shape; several topics may share one (`claims.claim` for created and updated). */
  readonly schemaId: string;
  /** Semantic version of the data's shape under `schemaId`, e.g. `1.0.0`. */
  readonly version: string;
  readonly description: string;
  readonly data: Schema;
}

/** Declares an event; list it in `defineServerPlugin({ events })` so that it may be emitted. */
export function defineEvent<Schema extends z.ZodType>(definition: {
  topic: string;
  schemaId?: string;
  version: string;
  description: string;
  data: Schema;
}): EventDefinition<Schema> {
  if (!TOPIC.test(definition.topic)) {
    throw new Error(
      `Event topic '${definition.topic}' must be category.entity.past-tense-action, e.g. claims.claim.created.`,
    );
  }
  if (!VERSION.test(definition.version)) {
    throw new Error(`Event '${definition.topic}' version '${definition.version}' must be major.minor.patch.`);
  }
  return Object.freeze({
    kind: 'event-definition' as const,
    topic: definition.topic,
    schemaId: definition.schemaId ?? definition.topic,
    version: definition.version,
    description: definition.description,
    data: definition.data,
  });
}

/** One entry of the topic catalogue, as integrations and documentation read it. */
export interface EventCatalogueEntry {
  topic: string;
  schema_id: string;
  version: string;
  description: string;
  plugin: string;
  /** JSON Schema (draft 2020-12) of `data`. */
  json_schema: Record<string, unknown>;
}

interface DeclaredEvent {
  plugin: string;
  definition: EventDefinition;
}

// Process-wide: every server started in this process declares its plugins' events here. A
// definition is the key, so two servers with the same plugins (tests) share the entries.
const declared = new Map<EventDefinition, DeclaredEvent>();

/**
 * Adds plugins' events to the catalogue; called by the server at start. Refuses a topic whose
 * category is not the declaring plugin, and one (schema id, version) with two different schemas.
 */
export function declareEvents(plugins: readonly { id: string; events?: readonly EventDefinition[] }[]): void {
  const problems: string[] = [];
  const next = new Map(declared);
  for (const plugin of plugins) {
    for (const definition of plugin.events ?? []) {
      const category = definition.topic.split('.')[0];
      if (category !== plugin.id) {
        problems.push(
          `plugin '${plugin.id}' declares event '${definition.topic}' outside its category '${plugin.id}.*'`,
        );
        continue;
      }
      for (const other of next.values()) {
        if (other.definition === definition) continue;
        const sameShape =
          other.definition.schemaId === definition.schemaId && other.definition.version === definition.version;
        if (sameShape && other.definition.data !== definition.data) {
          problems.push(`schema '${definition.schemaId}' version ${definition.version} is declared twice`);
        }
        if (other.definition.topic === definition.topic && other.definition.version === definition.version) {
          problems.push(`event '${definition.topic}' version ${definition.version} is declared twice`);
        }
      }
      next.set(definition, { plugin: plugin.id, definition });
    }
  }
  if (problems.length > 0) throw new Error(`Invalid event declarations:\n- ${[...new Set(problems)].join('\n- ')}`);
  for (const [key, value] of next) declared.set(key, value);
}

/** The catalogue of every declared topic with its JSON Schema, sorted by topic and version. */
export function eventCatalogue(): EventCatalogueEntry[] {
  return [...declared.values()]
    .map(({ plugin, definition }) => ({
      topic: definition.topic,
      schema_id: definition.schemaId,
      version: definition.version,
      description: definition.description,
      plugin,
      json_schema: z.toJSONSchema(definition.data, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
    }))
    .sort((a, b) => a.topic.localeCompare(b.topic) || a.version.localeCompare(b.version));
}

export class EventError extends Error {
  constructor(
    message: string,
    readonly issues: readonly { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'EventError';
  }
}

/** The envelope as stored and delivered. */
export interface EventEnvelope<Data = unknown> {
  event_id: string;
  event_date: string;
  schema_id: string;
  version: string;
  topic: string;
  /** User name of whoever caused the change; `system` for jobs. */
  triggering_user: string;
  data: Data;
}

/**
 * Writes one event to the outbox in `tx`, the transaction of the change it reports. Throws
 * EventError when the event is not declared by an installed plugin or `data` fails its schema —
 * which rolls the caller's transaction back: a change is not committed with a malformed event.
 */
export async function emitEvent<Schema extends z.ZodType>(
  tx: Queryable,
  event: EventDefinition<Schema>,
  data: z.input<Schema>,
  options: { triggeringUser: string },
): Promise<EventEnvelope<z.output<Schema>>> {
  const { envelope, statement } = eventStatement(event, data, options);
  await tx.execute(statement);
  return envelope;
}

/**
 * The event checked as emitEvent checks it (same errors), and its outbox insert as a statement for
 * the caller to run with a change of its own (`with change as (…), outbox as (<statement>) …`): one
 * round trip instead of two. The caller must run the statement in the change's transaction.
 */
export function eventStatement<Schema extends z.ZodType>(
  event: EventDefinition<Schema>,
  data: z.input<Schema>,
  options: { triggeringUser: string },
): { envelope: EventEnvelope<z.output<Schema>>; statement: SQL } {
  if (!declared.has(event)) {
    throw new EventError(`Event '${event.topic}' (${event.version}) is not declared by an installed plugin's events.`);
  }
  const parsed = event.data.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: issue.message,
    }));
    throw new EventError(
      `Event '${event.topic}' data does not match schema '${event.schemaId}' ${event.version}: ${issues
        .map((i) => (i.path ? `${i.path}: ${i.message}` : i.message))
        .join('; ')}`,
      issues,
    );
  }
  const envelope: EventEnvelope<z.output<Schema>> = {
    event_id: randomUUID(),
    event_date: new Date().toISOString(),
    schema_id: event.schemaId,
    version: event.version,
    topic: event.topic,
    triggering_user: options.triggeringUser,
    data: parsed.data,
  };
  const statement = sql`
    insert into core.event_outbox (event_id, event_date, schema_id, version, topic, triggering_user, data)
    values (${envelope.event_id}, ${envelope.event_date}, ${envelope.schema_id}, ${envelope.version},
            ${envelope.topic}, ${envelope.triggering_user}, ${JSON.stringify(envelope.data)}::jsonb)`;
  return { envelope, statement };
}
