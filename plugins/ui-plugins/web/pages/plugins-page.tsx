import {
  Button,
  Checkbox,
  FileInput,
  SimpleGrid,
  Group,
  Modal,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import IconPuzzle from '@tabler/icons-react/icons/IconPuzzle';
import {
  ConfirmButton,
  EmptyState,
  ErrorState,
  LoadingState,
  PageHeader,
  TOAST_DURATIONS,
  useApiClient,
  useCan,
  useHostServices,
} from '@atrium/sdk';
import {
  CAPABILITY_LABELS,
  canonicalSlot,
  DEFAULT_CAPABILITIES,
  PLUGIN_CAPABILITIES,
  PLUGIN_SLOTS,
  SLOT_LABELS,
} from '../../shared/plugin-schemas.js';
import { pluginHarnessRoute } from '../routes.js';
import { firstDetail, pluginKeys, PLUGINS_PATH, usePlugins, type PluginRecord } from '../plugins-api.js';

const ConfigurationEditor = lazy(() => import('./configuration-editor.js'));

const FETCH_ERROR = 'An error occurred while fetching plugins. Please refresh the page and try again.';
const SAVE_ERROR = 'An error occurred while saving the plugin. Please try again.';
const DELETE_ERROR = 'An error occurred while removing the plugin. Please try again.';
const toastMs = TOAST_DURATIONS.default;

const slotLabel = (name: string) => {
  const slot = canonicalSlot(name);
  return slot ? SLOT_LABELS[slot] : name;
};

/** Registered third-party UI plugins: list, enable/disable, the editor, upload and removal. */
export default function PluginsPage() {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const list = usePlugins();
  const canCreate = useCan('ui-plugins:plugin', 'create').allowed;
  const canUpdate = useCan('ui-plugins:plugin', 'update').allowed;
  const canDelete = useCan('ui-plugins:plugin', 'delete').allowed;
  const [editing, setEditing] = useState<PluginRecord | 'new' | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: pluginKeys.list });

  const setEnabled = async (plugin: PluginRecord, enabled: boolean) => {
    try {
      await api.patch(
        `${PLUGINS_PATH}${plugin.id}`,
        { data: { type: 'plugin', id: plugin.id, attributes: { enabled } } },
        { jsonApi: true },
      );
      services.showToast({ message: 'Plugin updated', kind: 'success', duration: toastMs });
    } catch (error) {
      services.showToast({ message: firstDetail(error, SAVE_ERROR), kind: 'error' });
    }
    await refresh();
  };
  const remove = async (plugin: PluginRecord) => {
    try {
      await api.delete(`${PLUGINS_PATH}${plugin.id}`, { jsonApi: true });
      services.showToast({ message: 'Plugin removed.', kind: 'success', duration: toastMs });
    } catch (error) {
      services.showToast({ message: firstDetail(error, DELETE_ERROR), kind: 'error' });
    }
    await refresh();
  };

  return (
    <Stack>
      <PageHeader
        title="Plugins"
        icon={IconPuzzle}
        description="Third-party plugins shown in the slots of Atrium's screens, each in its own sandbox."
        actions={
          canCreate && (
            <Group gap="xs">
              <Button variant="default" onClick={() => services.navigate(pluginHarnessRoute.link({}))}>
                Plugin harness
              </Button>
              <Button onClick={() => setEditing('new')}>Register plugin</Button>
            </Group>
          )
        }
      />
      {list.isPending ? (
        <LoadingState label="Loading plugins" />
      ) : list.isError ? (
        <ErrorState error={new Error(FETCH_ERROR)} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyState title="No plugins yet" description="Register one to add buttons to a screen." />
      ) : (
        <Table aria-label="Plugins" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Slots</Table.Th>
              <Table.Th>Source</Table.Th>
              <Table.Th>Enabled</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>{p.name}</Table.Td>
                <Table.Td>{p.plugin_slots.map((s) => slotLabel(s.slot_name)).join(', ')}</Table.Td>
                <Table.Td>
                  {p.content !== null
                    ? 'Inline content'
                    : `${p.files.length} uploaded file${p.files.length === 1 ? '' : 's'}`}
                </Table.Td>
                <Table.Td>
                  <Switch
                    aria-label={`Enable ${p.name}`}
                    checked={p.enabled}
                    disabled={!canUpdate}
                    onChange={(e) => void setEnabled(p, e.currentTarget.checked)}
                  />
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end">
                    {canUpdate && (
                      <Button size="xs" variant="default" onClick={() => setEditing(p)}>
                        Edit
                      </Button>
                    )}
                    {canDelete && (
                      <ConfirmButton
                        label="plugin"
                        verb="remove"
                        color="red"
                        size="xs"
                        ariaLabel={`Remove plugin ${p.name}`}
                        onConfirm={() => remove(p)}
                      >
                        Remove
                      </ConfirmButton>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {editing && (
        <PluginEditor
          plugin={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(created) => {
            setEditing(null);
            services.showToast({
              message: created ? 'Plugin registered' : 'Plugin updated',
              kind: 'success',
              duration: toastMs,
            });
            void refresh();
          }}
        />
      )}
    </Stack>
  );
}

/** A configuration schema must be a JSON object (a JSON Schema); this says why not, or null. */
export function schemaProblem(text: string): string | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? null
      : 'The configuration schema must be a JSON object.';
  } catch (error) {
    return `The configuration schema is not valid JSON: ${(error as Error).message}`;
  }
}

/** The configuration must be a JSON object; this says why not, or null when it is one. */
export function configurationProblem(text: string): string | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? null
      : 'The configuration must be a JSON object.';
  } catch (error) {
    return `The configuration is not valid JSON: ${(error as Error).message}`;
  }
}

/** The palette commands field: empty, or a JSON array (the server checks each command). */
function paletteCommandsProblem(text: string): string | null {
  try {
    return Array.isArray(JSON.parse(text)) ? null : 'The palette commands must be a JSON array.';
  } catch (error) {
    return `The palette commands are not valid JSON: ${(error as Error).message}`;
  }
}

function PluginEditor({
  plugin,
  onClose,
  onSaved,
}: {
  plugin: PluginRecord | null;
  onClose(): void;
  onSaved(created: boolean): void;
}) {
  const api = useApiClient();
  const [name, setName] = useState(plugin?.name ?? '');
  const [slot, setSlot] = useState<string>(canonicalSlot(plugin?.plugin_slots[0]?.slot_name ?? '') ?? PLUGIN_SLOTS[0]);
  const [source, setSource] = useState<'file' | 'content'>(plugin?.content != null ? 'content' : 'file');
  const [filePath, setFilePath] = useState(plugin?.plugin_slots[0]?.plugin_file_path ?? 'index.html');
  const [file, setFile] = useState<File | null>(null);
  const [content, setContent] = useState(plugin?.content ?? '');
  const [configuration, setConfiguration] = useState(JSON.stringify(plugin?.configuration ?? {}, null, 2));
  const configError = configurationProblem(configuration);
  const [capabilities, setCapabilities] = useState<string[]>(plugin?.capabilities ?? DEFAULT_CAPABILITIES);
  const [schemaText, setSchemaText] = useState(
    plugin?.configuration_schema ? JSON.stringify(plugin.configuration_schema, null, 2) : '',
  );
  const schemaError = schemaText.trim() ? schemaProblem(schemaText) : null;
  const schema = schemaText.trim() && !schemaError ? (JSON.parse(schemaText) as Record<string, unknown>) : null;
  const [problems, setProblems] = useState<string[]>([]);
  const [commandsText, setCommandsText] = useState(
    plugin?.palette_commands.length ? JSON.stringify(plugin.palette_commands, null, 2) : '',
  );
  const commandsError = commandsText.trim() ? paletteCommandsProblem(commandsText) : null;
  const [paletteSearch, setPaletteSearch] = useState(plugin?.palette_search ?? false);
  const invalid = Boolean(configError || schemaError || commandsError || problems.length);

  const save = useMutation({
    mutationFn: async () => {
      const slotName =
        plugin?.plugin_slots[0]?.slot_name && canonicalSlot(plugin.plugin_slots[0].slot_name) === slot
          ? plugin.plugin_slots[0].slot_name
          : slot;
      const attributes = {
        name,
        // The editor edits the first slot; a record's further slots (registered over the API) are kept.
        plugin_slots: [
          { slot_name: slotName, plugin_file_path: source === 'file' ? filePath : null },
          ...(plugin?.plugin_slots.slice(1) ?? []).map((s) => ({
            slot_name: s.slot_name,
            plugin_file_path: source === 'file' ? (s.plugin_file_path ?? filePath) : null,
          })),
        ],
        configuration: JSON.parse(configuration) as Record<string, unknown>,
        content: source === 'content' ? content : null,
        capabilities,
        configuration_schema: schema,
        palette_commands: commandsText.trim() ? (JSON.parse(commandsText) as unknown[]) : [],
        palette_search: paletteSearch,
      };
      const body = plugin
        ? await api.patch<{ data: { id: string } }>(
            `${PLUGINS_PATH}${plugin.id}`,
            { data: { type: 'plugin', id: plugin.id, attributes } },
            { jsonApi: true },
          )
        : await api.post<{ data: { id: string } }>(
            PLUGINS_PATH,
            { data: { type: 'plugin', attributes } },
            { jsonApi: true },
          );
      if (source === 'file' && file) {
        await api.post(`${PLUGINS_PATH}${body.data.id}/files`, {
          path: filePath,
          content_type: file.name.endsWith('.js') ? 'text/javascript' : 'text/html',
          content: await file.text(),
        });
      }
    },
    onSuccess: () => onSaved(!plugin),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!invalid) save.mutate();
  };

  return (
    <Modal opened onClose={onClose} title={plugin ? `Edit ${plugin.name}` : 'Register plugin'} size="lg">
      <form onSubmit={submit} aria-label="Plugin">
        <Stack>
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} required />
          <Select
            label="Slot"
            data={PLUGIN_SLOTS.map((s) => ({ value: s, label: SLOT_LABELS[s] }))}
            value={slot}
            onChange={(v) => v && setSlot(v)}
            allowDeselect={false}
          />
          <Select
            label="Source"
            data={[
              { value: 'file', label: 'Uploaded file' },
              { value: 'content', label: 'Inline HTML' },
            ]}
            value={source}
            onChange={(v) => v && setSource(v as 'file' | 'content')}
            allowDeselect={false}
          />
          {source === 'file' ? (
            <>
              <TextInput
                label="Plugin file path"
                description="The file the slot loads, as uploaded."
                value={filePath}
                onChange={(e) => setFilePath(e.currentTarget.value)}
                required
              />
              <FileInput
                label="Plugin file"
                description={
                  plugin?.files.length
                    ? `Uploaded: ${plugin.files.map((f) => f.path).join(', ')}. Choose a file to replace it.`
                    : 'An HTML file (or a script) stored with the plugin.'
                }
                accept=".html,.htm,.js"
                value={file}
                onChange={setFile}
                clearable
              />
            </>
          ) : (
            <Textarea
              label="Content"
              autosize
              minRows={6}
              value={content}
              onChange={(e) => setContent(e.currentTarget.value)}
              required
            />
          )}
          <Textarea
            label="Configuration schema"
            description="The JSON Schema the plugin ships for its configuration (optional): the editor below checks against it."
            autosize
            minRows={2}
            maxRows={10}
            styles={{ input: { fontFamily: 'monospace' } }}
            value={schemaText}
            onChange={(e) => setSchemaText(e.currentTarget.value)}
            error={schemaError}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="plugin-configuration-label">
              Configuration
            </Text>
            <Text size="xs" c="dimmed">
              A JSON object handed to the plugin.
            </Text>
            <Suspense fallback={<Text size="sm">Loading editor…</Text>}>
              <ConfigurationEditor
                value={configuration}
                onChange={setConfiguration}
                schema={schema}
                onProblems={setProblems}
              />
            </Suspense>
            {(configError ?? problems[0]) ? (
              <Text size="xs" c="red" role="alert" aria-label="Configuration problem">
                {configError ?? problems.join(' ')}
              </Text>
            ) : null}
          </Stack>
          <Checkbox.Group
            label="Capabilities"
            description="What the plugin may do over the bridge. Anything else it asks for is refused."
            value={capabilities}
            onChange={setCapabilities}
          >
            <SimpleGrid cols={2} mt="xs" spacing="xs">
              {PLUGIN_CAPABILITIES.map((c) => (
                <Checkbox key={c} value={c} label={CAPABILITY_LABELS[c]} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Textarea
            label="Palette commands"
            description='Listed in the command palette under the plugin’s name (optional), e.g. [{"id": "report", "title": "Roof report", "shortcut": "R R"}]. A command with "route": {"name": "quote:quotes"} opens that page; one without sends the plugin the command’s id.'
            autosize
            minRows={2}
            maxRows={10}
            styles={{ input: { fontFamily: 'monospace' } }}
            value={commandsText}
            onChange={(e) => setCommandsText(e.currentTarget.value)}
            error={commandsError}
          />
          <Checkbox
            label="Answers the palette’s search"
            description="The palette asks the plugin for results as the user types (it waits 1.5 s at most)."
            checked={paletteSearch}
            onChange={(e) => setPaletteSearch(e.currentTarget.checked)}
          />
          {save.isError && (
            <Text c="red" role="alert">
              {firstDetail(save.error, SAVE_ERROR)}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending} disabled={invalid}>
              {plugin ? 'Save plugin' : 'Register plugin'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
