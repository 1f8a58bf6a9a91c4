import { createHash } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import {
  ApiError,
  attributeError,
  fieldError,
  newObjectKey,
  notFound,
  resourceDocument,
  z,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import {
  capabilitiesSchema,
  DEFAULT_CAPABILITIES,
  PLUGIN_FILE_MAX_BYTES,
  PLUGIN_FILE_TYPES,
  paletteCommandsSchema,
  pluginFilePath,
  pluginSlotSchema,
} from '../shared/plugin-schemas.js';
import { checkConfiguration } from './configuration-schema.js';
import { can } from './permissions.js';
import { plugin, pluginFile, type PluginSlotRow } from './tables.js';

/**
 * `/api/integrations/plugins/` (JSON:API, spec "Plugins (integrations host)", type `plugin`): plugin
 * records, their uploaded files and enable/disable. The spec's rule is enforced on every write:
 * a record has either inline `content`, or `base_url`/each slot's `plugin_file_path`, never both.
 */
const tags = ['ui-plugins'];
const security = [{ bearer: [] }];
const TYPE = 'plugin';

const attributes = {
  name: z.string().trim().min(1, 'This field is required.').max(200),
  plugin_slots: z.array(pluginSlotSchema).min(1, 'Choose at least one slot.').max(20),
  base_url: z
    .url({ protocol: /^https$/, error: 'Enter an https URL.' })
    .max(2000)
    .nullish(),
  configuration: z.record(z.string(), z.unknown(), { error: 'The configuration must be a JSON object.' }),
  content: z.string().max(PLUGIN_FILE_MAX_BYTES).nullish(),
  enabled: z.boolean().optional(),
  capabilities: capabilitiesSchema.optional(),
  configuration_schema: z
    .record(z.string(), z.unknown(), { error: 'The configuration schema must be a JSON object.' })
    .nullish(),
  palette_commands: paletteCommandsSchema.optional(),
  palette_search: z.boolean().optional(),
};
const createBody = resourceDocument(TYPE, attributes);
const patchBody = resourceDocument(
  TYPE,
  {
    name: attributes.name.optional(),
    plugin_slots: attributes.plugin_slots.optional(),
    base_url: attributes.base_url,
    configuration: attributes.configuration.optional(),
    content: attributes.content,
    enabled: attributes.enabled,
    capabilities: attributes.capabilities,
    configuration_schema: attributes.configuration_schema,
    palette_commands: attributes.palette_commands,
    palette_search: attributes.palette_search,
  },
  { id: 'required' },
);
const idParams = z.object({ id: z.uuid({ error: 'Not a plugin id.' }) });

type Row = typeof plugin.$inferSelect;
type FileRow = typeof pluginFile.$inferSelect;

const present = (row: Row, files: FileRow[]) => ({
  type: TYPE,
  id: row.id,
  attributes: {
    name: row.name,
    plugin_slots: row.slots,
    base_url: row.baseUrl,
    configuration: row.configuration,
    content: row.content,
    enabled: row.enabled,
    capabilities: row.capabilities,
    configuration_schema: row.configurationSchema,
    palette_commands: row.paletteCommands,
    palette_search: row.paletteSearch,
    files: files.map((f) => ({ path: f.path, content_type: f.contentType, size: f.size, sha256: f.sha256 })),
    created_by: row.createdBy,
    date_created: row.createdAt.toISOString(),
    date_updated: row.updatedAt.toISOString(),
  },
});

/** content XOR (base_url / plugin_file_path): the spec's Plugin rule, as a 400 on the attribute. */
function checkSource(input: { content: string | null; baseUrl: string | null; slots: PluginSlotRow[] }) {
  const hasFiles = input.baseUrl !== null || input.slots.some((s) => s.plugin_file_path);
  if (input.content !== null && hasFiles) {
    throw attributeError('content', 'Give either the content or a base URL and file paths, not both.');
  }
  if (input.content === null && !input.slots.every((s) => s.plugin_file_path)) {
    throw attributeError('plugin_slots', 'Each slot needs a plugin file path when there is no content.');
  }
}

export function pluginRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const { db, storage } = context;
  const find = async (id: string) => {
    const [row] = await db.select().from(plugin).where(eq(plugin.id, id));
    if (!row) throw notFound(`Plugin ${id} not found.`);
    return row;
  };
  const filesOf = (id: string) => db.select().from(pluginFile).where(eq(pluginFile.pluginId, id));
  const normaliseSlots = (slots: z.infer<typeof pluginSlotSchema>[]): PluginSlotRow[] =>
    slots.map((s) => ({ slot_name: s.slot_name, plugin_file_path: s.plugin_file_path ?? null }));

  router.get(
    '/plugins/',
    {
      config: { jsonapi: true, access: can('plugin', 'read') },
      schema: { summary: 'Registered UI plugins, newest first.', tags, security },
    },
    async () => {
      const rows = await db.select().from(plugin).orderBy(desc(plugin.createdAt));
      const files = await db.select().from(pluginFile);
      return {
        data: rows.map((row) =>
          present(
            row,
            files.filter((f) => f.pluginId === row.id),
          ),
        ),
        meta: { count: rows.length },
      };
    },
  );

  router.get(
    '/plugins/:id',
    {
      config: { jsonapi: true, access: can('plugin', 'read') },
      schema: { summary: 'One UI plugin.', tags, security, params: idParams },
    },
    async (request) => {
      const row = await find(request.params.id);
      return { data: present(row, await filesOf(row.id)) };
    },
  );

  router.post(
    '/plugins/',
    {
      config: { jsonapi: true, access: can('plugin', 'create') },
      schema: { summary: 'Registers a UI plugin (disabled until enabled).', tags, security, body: createBody },
    },
    async (request, reply) => {
      const input = request.body.data.attributes;
      if (!input?.name) throw attributeError('name', 'This field is required.');
      if (!input.plugin_slots) throw attributeError('plugin_slots', 'This field is required.');
      if (!input.configuration) throw attributeError('configuration', 'This field is required.');
      const slots = normaliseSlots(input.plugin_slots);
      const source = { content: input.content ?? null, baseUrl: input.base_url ?? null, slots };
      checkSource(source);
      checkConfiguration(input.configuration, input.configuration_schema);
      const [row] = await db
        .insert(plugin)
        .values({
          name: input.name,
          slots,
          baseUrl: source.baseUrl,
          content: source.content,
          configuration: input.configuration,
          enabled: input.enabled ?? false,
          capabilities: input.capabilities ?? DEFAULT_CAPABILITIES,
          configurationSchema: input.configuration_schema ?? null,
          paletteCommands: input.palette_commands ?? [],
          paletteSearch: input.palette_search ?? false,
          createdBy: request.principal.username,
        })
        .returning();
      reply.status(201);
      return { data: present(row!, []) };
    },
  );

  router.patch(
    '/plugins/:id',
    {
      config: { jsonapi: true, access: can('plugin', 'update') },
      schema: {
        summary: 'Changes a UI plugin, or enables/disables it (`enabled`).',
        tags,
        security,
        params: idParams,
        body: patchBody,
      },
    },
    async (request) => {
      const row = await find(request.params.id);
      if (request.body.data.id !== row.id) throw new ApiError(409, 'The id in the body is not the id in the URL.');
      const input = request.body.data.attributes ?? {};
      const slots = input.plugin_slots ? normaliseSlots(input.plugin_slots) : row.slots;
      const source = {
        content: input.content !== undefined ? input.content : row.content,
        baseUrl: input.base_url !== undefined ? input.base_url : row.baseUrl,
        slots,
      };
      checkSource(source);
      // Checked when either side changes (a record saved before the check keeps working as it is).
      if (input.configuration !== undefined || input.configuration_schema !== undefined)
        checkConfiguration(
          input.configuration ?? row.configuration,
          input.configuration_schema !== undefined ? input.configuration_schema : row.configurationSchema,
        );
      const [updated] = await db
        .update(plugin)
        .set({
          name: input.name ?? row.name,
          slots,
          baseUrl: source.baseUrl,
          content: source.content,
          configuration: input.configuration ?? row.configuration,
          enabled: input.enabled ?? row.enabled,
          capabilities: input.capabilities ?? row.capabilities,
          configurationSchema:
            input.configuration_schema !== undefined ? input.configuration_schema : row.configurationSchema,
          paletteCommands: input.palette_commands ?? row.paletteCommands,
          paletteSearch: input.palette_search ?? row.paletteSearch,
          updatedAt: new Date(),
        })
        .where(eq(plugin.id, row.id))
        .returning();
      return { data: present(updated!, await filesOf(row.id)) };
    },
  );

  router.delete(
    '/plugins/:id',
    {
      config: { jsonapi: true, access: can('plugin', 'delete') },
      schema: { summary: 'Removes a UI plugin and its files.', tags, security, params: idParams },
    },
    async (request, reply) => {
      const row = await find(request.params.id);
      const files = await filesOf(row.id);
      await db.delete(plugin).where(eq(plugin.id, row.id));
      // Bytes go after the row: a failure here leaves an unreferenced object, never a dangling row.
      for (const file of files) await storage.delete(file.storageKey);
      reply.status(204);
      return reply.send();
    },
  );

  const uploadBody = z.object({
    path: pluginFilePath,
    content_type: z.enum(PLUGIN_FILE_TYPES as [string, ...string[]], {
      error: `A plugin file is one of ${PLUGIN_FILE_TYPES.join(', ')}.`,
    }),
    /** The file's text; plugin files are text (HTML, scripts, styles, JSON, SVG). */
    content: z.string().max(PLUGIN_FILE_MAX_BYTES, 'The file is larger than 1 MB.'),
  });

  router.post(
    '/plugins/:id/files',
    {
      config: { access: can('plugin', 'update') },
      schema: {
        summary: "Uploads one of a plugin's files (replacing a file at the same path) to platform storage.",
        tags,
        security,
        params: idParams,
        body: uploadBody,
      },
    },
    async (request) => {
      const row = await find(request.params.id);
      const { path, content_type: contentType, content } = request.body;
      if (row.content !== null) throw fieldError('path', 'This plugin has inline content; it takes no files.');
      const bytes = Buffer.from(content, 'utf8');
      const stored = await storage.put(newObjectKey('ui-plugins/files'), bytes, {
        contentType,
        maxBytes: PLUGIN_FILE_MAX_BYTES,
      });
      const [previous] = await db
        .select()
        .from(pluginFile)
        .where(and(eq(pluginFile.pluginId, row.id), eq(pluginFile.path, path)));
      const values = {
        pluginId: row.id,
        path,
        storageKey: stored.key,
        contentType,
        size: stored.size,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        uploadedAt: new Date(),
      };
      await db
        .insert(pluginFile)
        .values(values)
        .onConflictDoUpdate({ target: [pluginFile.pluginId, pluginFile.path], set: values });
      if (previous) await storage.delete(previous.storageKey);
      return { path, content_type: contentType, size: stored.size, sha256: values.sha256 };
    },
  );
}
