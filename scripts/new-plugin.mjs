#!/usr/bin/env node
// npm run new:plugin <id> [-- --dir <plugins folder>] [--no-migrations]
//
// Scaffolds a module under plugins/<id>: one resource (entries, declared once and shared by both
// halves), its table and migration, permissions with default grants for the system roles, a page
// listing and creating entries, a command that opens it, a chord bound to that command, and unit,
// API and end-to-end tests that pass as generated. docs/plugins.md walks through the result.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const id = args.find((arg) => !arg.startsWith('--') && args[args.indexOf(arg) - 1] !== '--dir');
const dirIndex = args.indexOf('--dir');
const pluginsDir = dirIndex >= 0 ? path.resolve(args[dirIndex + 1]) : path.join(root, 'plugins');
const migrations = !args.includes('--no-migrations');

if (!id || !/^[a-z][a-z0-9-]*$/.test(id)) {
  console.error('Usage: npm run new:plugin <id>   (lowercase letters, digits and dashes, e.g. diary)');
  process.exit(1);
}
const target = path.join(pluginsDir, id);
if (existsSync(target)) {
  console.error(`${path.relative(root, target)} already exists.`);
  process.exit(1);
}

const words = id.split('-');
const Title = words.map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');
const Pascal = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
const camel = Pascal[0].toLowerCase() + Pascal.slice(1);
const schema = id.replaceAll('-', '_');

// The chord: `g` and the first letter of the id that no other chord uses. Two modules binding the
// same chord both show in `?` as a conflict and the one registered last wins, so a diary scaffolded
// with `g d` would open Documents. Taken: every `g x` written in the shell's or any module's web
// sources (not only manifests), and the module chords issue 13 reserves even before their module lands.
const RESERVED_CHORDS = 'hlqaudrispcn'; // g h All Modules, g l lines, g q quotes, … g p/g c/g n quick searches
const bound = new Set(RESERVED_CHORDS);
const sources = (dir) =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name))
    : [];
const moduleDirs = [...new Set([path.join(root, 'plugins'), pluginsDir])].filter((dir) => existsSync(dir));
const webDirs = [
  path.join(root, 'packages', 'host', 'src'),
  ...moduleDirs.flatMap((dir) => readdirSync(dir).map((name) => path.join(dir, name, 'web'))),
];
for (const file of webDirs.flatMap(sources)) {
  for (const match of readFileSync(file, 'utf8').matchAll(/['"`]g ([a-z0-9])['"`]/g)) bound.add(match[1]);
}
const letter = [...`${id.replaceAll('-', '')}abcdefghijklmnopqrstuvwxyz`].find((c) => /[a-z]/.test(c) && !bound.has(c));
if (!letter) {
  console.error('Every `g` chord is taken; bind the new command to another key in web/plugin.ts.');
  process.exit(1);
}
const chord = `g ${letter}`;

const files = {
  'package.json': `${JSON.stringify(
    {
      name: `@atrium/plugin-${id}`,
      private: true,
      version: '0.1.0',
      type: 'module',
      exports: { './web': './web/plugin.ts', './server': './server/plugin.ts', './shared': './shared/entry-shape.ts' },
      dependencies: {
        '@atrium/sdk': '0.1.0',
        '@mantine/core': '^9.7.4',
        '@tanstack/react-query': '^5.108.0',
        'drizzle-orm': '^0.45.4',
        react: '^19.3.1',
        'react-router-dom': '^7.18.5',
        zod: '^4.6.7',
      },
    },
    null,
    2,
  )}\n`,

  'shared/entry-shape.ts': `import { defineResourceShape } from '@atrium/sdk/shared';
import { z } from 'zod';

/**
 * ${Title} entries as both halves see them: the API's attributes, filters and orderings. The server
 * half adds the table and permission (server/entries.ts); the web half derives its client from it.
 */
export const entryShape = defineResourceShape({
  type: '${id}-entry',
  path: '/${id}/entries/',
  style: 'plain',
  attributes: {
    title: z.string().trim().min(1, 'A title is required.').max(200),
    body: z.string().max(10_000).default(''),
  },
  readOnly: ['created_by', 'created_at'],
  filters: { created_by: { kind: 'text' } },
  orderings: ['-id', 'id', 'title'],
  pageSize: 50,
});
`,

  'server/tables.ts': `import { integer, pgSchema, text, timestamp } from 'drizzle-orm/pg-core';

/** The ${id} module's tables, all in its own Postgres schema (the plugin's \`dbSchema\`). */
export const ${camel}Schema = pgSchema('${schema}');

export const entry = ${camel}Schema.table('entry', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  title: text('title').notNull(),
  body: text('body').notNull().default(''),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
`,

  'server/permissions.ts': `import { definePermissions } from '@atrium/sdk/server';

/**
 * Who may do what in ${Title}. \`ui:${id}\` (seeing the module) is added by definePermissions; the
 * grants are the system roles' defaults, applied by the access module at start while the module is
 * new or \`grantVersion\` rises. Administrators hold everything already.
 */
export const ${camel}Permissions = definePermissions('${id}', {
  grantVersion: 1,
  module: 'the ${Title} module',
  resources: {
    entry: {
      actions: {
        read: 'List and read ${Title} entries.',
        create: 'Write ${Title} entries.',
        update: 'Change ${Title} entries.',
        delete: 'Delete ${Title} entries.',
      },
    },
  },
  grants: {
    'Claims Adjuster': { view: true, entry: ['read', 'create', 'update'] },
    Underwriter: { view: true, entry: ['read'] },
  },
});
`,

  'server/entries.ts': `import { declareResource } from '@atrium/sdk/server';
import { entryShape } from '../shared/entry-shape.js';
import { entry } from './tables.js';

/** The server half of the entries resource: list, find, create, update and delete under /api/${id}/entries/. */
export const entries = declareResource({
  shape: entryShape,
  table: entry,
  permission: { resource: '${id}:entry' },
  hooks: {
    // Who wrote an entry comes from the caller, never from the document (it is read-only).
    validate(values, { request, action }) {
      if (action === 'create') values.createdBy = request.principal.username;
    },
  },
  openapi: { summary: '${Title} entries', tags: ['${id}'], security: [{ bearer: [] }] },
});
`,

  'server/plugin.ts': `import { fileURLToPath } from 'node:url';
import { defineServerPlugin, registerResources } from '@atrium/sdk/server';
import { entries } from './entries.js';
import { ${camel}Permissions } from './permissions.js';

/** The ${Title} module's server half: its schema and migrations, permissions, and the entries resource. */
export default defineServerPlugin({
  id: '${id}',
  title: '${Title}',
  dbSchema: '${schema}',
  // Absolute, so the server finds it whatever directory it runs from.
  migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
  permissions: ${camel}Permissions,
  routes(router, context) {
    registerResources(router, context, [entries]);
  },
});
`,

  'web/routes.ts': `import { createRouteRef } from '@atrium/sdk';

export const ${camel}PageRoute = createRouteRef({ name: '${id}:page', path: '/${id}' });
`,

  'web/entries-client.ts': `import { resourceClient } from '@atrium/sdk';
import { entryShape } from '../shared/entry-shape.js';

/** Typed list/create calls and query keys for entries, derived from the shared shape. */
export const entriesClient = resourceClient(entryShape);
`,

  'web/plugin.ts': `import { defineCommand, definePlugin } from '@atrium/sdk';
import { ${camel}PageRoute } from './routes.js';

/**
 * The ${Title} module's web half: its page, a sidebar link, a command that opens the page and the
 * chord \`${chord}\` bound to that command. \`moduleKey\` ties all of them to \`ui:${id}\`: roles
 * without it see none of them.
 */
export default definePlugin({
  id: '${id}',
  title: '${Title}',
  moduleKey: '${id}',
  routes: [
    {
      name: ${camel}PageRoute.name,
      path: ${camel}PageRoute.path,
      meta: { layout: 'default', title: '${Title}' },
      loader: () => import('./pages/${id}-page.js'),
    },
  ],
  nav: [{ id: '${id}.nav', title: '${Title}', to: ${camel}PageRoute, area: 'main', order: 900, command: '${id}.open' }],
  commands: [
    defineCommand({
      id: '${id}.open',
      title: 'Open ${Title}',
      group: '${Title}',
      keywords: ['${id}', 'entries'],
      run: (_args, { services }) => services.navigate(${camel}PageRoute.link({})),
    }),
  ],
  shortcuts: [{ key: '${chord}', command: '${id}.open', description: 'Go to ${Title}', when: '!modalOpen' }],
});
`,

  'web/pages/__ID__-page.tsx': `import { Button, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useApiClient } from '@atrium/sdk';
import { entriesClient } from '../entries-client.js';

/** ${Title}: the newest entries first, and a form that adds one. */
export default function ${Pascal}Page() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const list = useQuery(entriesClient.listQuery(api, { ordering: '-id' }));
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const create = useMutation({
    mutationFn: () => entriesClient.create(api, { attributes: { title, body } }),
    onSuccess: async () => {
      setTitle('');
      setBody('');
      await queryClient.invalidateQueries({ queryKey: entriesClient.keys.all });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Stack>
      <Title order={1}>${Title}</Title>
      <form onSubmit={submit} aria-label="New entry">
        <Stack>
          <TextInput label="Title" value={title} onChange={(e) => setTitle(e.currentTarget.value)} required />
          <Textarea label="Entry" value={body} onChange={(e) => setBody(e.currentTarget.value)} autosize minRows={2} />
          {create.error ? <Text c="red">{(create.error as Error).message}</Text> : null}
          <Button type="submit" loading={create.isPending} style={{ alignSelf: 'flex-start' }}>
            Add entry
          </Button>
        </Stack>
      </form>
      {list.isPending ? (
        <Text>Loading entries…</Text>
      ) : list.isError ? (
        <Text c="red">The entries could not be loaded.</Text>
      ) : list.data.items.length === 0 ? (
        <Text>No entries yet.</Text>
      ) : (
        <Table aria-label="Entries">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Title</Table.Th>
              <Table.Th>Entry</Table.Th>
              <Table.Th>Written by</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.items.map((item) => (
              <Table.Tr key={item.id}>
                <Table.Td>{String(item.title)}</Table.Td>
                <Table.Td>{String(item.body)}</Table.Td>
                <Table.Td>{String(item.created_by)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
`,

  'web/plugin.test.ts': `import { describe, expect, it } from 'vitest';
import plugin from './plugin.js';

describe('${id} web plugin', () => {
  it('opens its page with a command bound to ${chord}, all behind ui:${id}', () => {
    expect(plugin.moduleKey).toBe('${id}');
    expect(plugin.routes.map((route) => route.path)).toEqual(['/${id}']);
    expect(plugin.commands.map((command) => command.id)).toEqual(['${id}.open']);
    expect(plugin.shortcuts).toEqual([expect.objectContaining({ key: '${chord}', command: '${id}.open' })]);
  });
});
`,

  'test/__ID__.api.test.ts': `import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startTestServer, type TestServer } from '@atrium/sdk/testing';
import accessPlugin from '@atrium/plugin-access/server';
import identityPlugin from '@atrium/plugin-identity/server';
import ${camel}Plugin from '../server/plugin.js';

/** The entries API as the demo users: the default grants decide who may do what. */
describe('${id} entries', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ plugins: [identityPlugin, accessPlugin, ${camel}Plugin] });
  });
  afterAll(() => server?.close());

  it('lets an adjuster write an entry and list it', async () => {
    const adjuster = await as(server, 'adjuster@atrium.test', { base: '/api/${id}' });
    const created = await adjuster.post('/entries/', { title: 'First call', body: 'Spoke to the insured.' });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ title: 'First call', created_by: 'adjuster@atrium.test' });
    const list = (await (await adjuster.get('/entries/')).json()) as { count: number; results: { title: string }[] };
    expect(list.results.map((entry) => entry.title)).toContain('First call');
  });

  it('refuses an entry without a title', async () => {
    const adjuster = await as(server, 'adjuster@atrium.test', { base: '/api/${id}' });
    expect((await adjuster.post('/entries/', { title: ' ' })).status).toBe(400);
  });

  it('lets an underwriter read but not write, and an agent neither', async () => {
    const underwriter = await as(server, 'underwriter@atrium.test', { base: '/api/${id}' });
    expect((await underwriter.get('/entries/')).status).toBe(200);
    expect((await underwriter.post('/entries/', { title: 'Nope' })).status).toBe(403);
    const agent = await as(server, 'agent@agency.test', { base: '/api/${id}' });
    expect((await agent.get('/entries/')).status).toBe(403);
  });
});
`,

  'test/e2e/__ID__.e2e.test.ts': `import { describe, expect, it } from 'vitest';
import { useE2eSession } from '../../../../tests/e2e/browser.js';

/**
 * An adjuster opens ${Title} from the palette (its command) and with its chord, adds an entry and sees
 * it listed. The entry's title is new on every attempt, so a retry against the same server passes.
 */
describe('${id} in the browser', () => {
  const session = useE2eSession('${id}');

  it('opens from the palette and with ${chord}, and adds an entry', async () => {
    const page = await session.signIn('adjuster@atrium.test', '/');
    await page.getByRole('link', { name: '${Title}' }).first().waitFor();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').waitFor();
    // The command is the palette's "Go to" entry of the sidebar link that names it (with its chord).
    await page.keyboard.type('${Title}');
    await palette.getByRole('group', { name: 'Go to' }).getByRole('option', { name: /${Title}/ }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: '${Title}' }).waitFor();
    await palette.waitFor({ state: 'hidden' });

    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: '${Title}' }).waitFor({ state: 'detached' });
    await page.locator('body').click();
    await page.keyboard.press('g');
    await page.keyboard.press('${letter}');
    await page.getByRole('heading', { name: '${Title}' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/${id}');

    const title = \`Site visit \${Date.now()}\`;
    await page.getByLabel('Title').fill(title);
    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.getByRole('cell', { name: title }).waitFor();
    expect(session.errors).toEqual([]);
  });
});
`,
};

for (const [name, content] of Object.entries(files)) {
  const file = path.join(target, name.replaceAll('__ID__', id));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}
console.log(`Created ${path.relative(root, target) || target} (chord ${chord}).`);

if (migrations) {
  const result = spawnSync(
    'npx',
    [
      'drizzle-kit',
      'generate',
      '--dialect=postgresql',
      `--schema=${path.join(target, 'server', 'tables.ts')}`,
      `--out=${path.join(target, 'server', 'migrations')}`,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}
console.log(`Next: npm install   (links @atrium/plugin-${id}), then npm run build and npm start.`);
