import { ActionIcon, Alert, Button, Group, Menu, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import IconDots from '@tabler/icons-react/icons/IconDots';
import { useApiClient, useCan, useHostServices } from '@atrium/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ComponentJson, EffectiveDateJson } from '../../shared/api-types.js';
import { serverMessage } from '../format.js';
import { clonedBody, COMPONENT_NAME, FOLDER } from './component-text.js';

/** What the signed-in role may do to components: the same access evaluation the server runs. */
export function useComponentRights() {
  const create = useCan('rules:component', 'create');
  const update = useCan('rules:component', 'update');
  const remove = useCan('rules:component', 'delete');
  return { create: create.allowed, update: update.allowed, delete: remove.allowed };
}
export type ComponentRights = ReturnType<typeof useComponentRights>;

/** The date a project's list shows and new components go to: its latest draft (as the server picks). */
export function currentDate(dates: EffectiveDateJson[]): EffectiveDateJson | undefined {
  const sorted = [...dates].sort((a, b) => b.effective_date.localeCompare(a.effective_date));
  return sorted.find((d) => d.status === 'draft') ?? sorted.find((d) => d.status !== 'archived') ?? sorted[0];
}

type Dialog = 'clone' | 'move' | 'delete' | null;

/**
 * A component's actions (clone, enable or disable, move, delete), as a menu. Each is offered only
 * when the role may do it, and the ones that change an effective date only on a draft date.
 */
export function ComponentActions(props: {
  component: ComponentJson;
  packages: { id: number; name: string }[];
  draft: boolean;
  rights: ComponentRights;
  /** After a clone: the copy (the page may open it). */
  onCloned?: (copy: ComponentJson) => void;
  onDeleted?: () => void;
}) {
  const c = props.component;
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const title = c.label || c.name;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['rules'] });
  const done = (message: string) => {
    services.showToast({ message, kind: 'success' });
    setDialog(null);
    void refresh();
  };
  const dated = `/rules/brl-components/${c.id}/effective-date/${c.effective_date}/`;

  const setState = useMutation({
    mutationFn: (state: ComponentJson['state']) => api.post<ComponentJson>(`${dated}set-state/${state}/`, {}),
    onSuccess: (saved) => done(`${title} is ${saved.state === 'enabled' ? 'enabled' : 'disabled'}.`),
    onError: (error) =>
      services.showToast({ message: `The state could not be changed: ${serverMessage(error)}`, kind: 'error' }),
  });
  const remove = useMutation({
    mutationFn: () => api.delete(dated),
    onSuccess: () => {
      done(`Deleted ${title}.`);
      props.onDeleted?.();
    },
  });

  const canClone = props.rights.create && props.draft;
  const canState = props.rights.update && props.draft;
  const canMove = props.rights.update;
  const canDelete = props.rights.delete && props.draft;
  if (!canClone && !canState && !canMove && !canDelete) return null;
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" size="sm" aria-label={`Actions for ${title}`}>
            <IconDots size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {canClone && <Menu.Item onClick={() => setDialog('clone')}>Clone…</Menu.Item>}
          {canState && c.state === 'enabled' && (
            <Menu.Item onClick={() => setState.mutate('disabled')}>Disable</Menu.Item>
          )}
          {canState && c.state === 'disabled' && (
            <Menu.Item onClick={() => setState.mutate('enabled')}>Enable</Menu.Item>
          )}
          {canMove && <Menu.Item onClick={() => setDialog('move')}>Move…</Menu.Item>}
          {canDelete && (
            <Menu.Item color="red" onClick={() => setDialog('delete')}>
              Delete…
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      <Modal opened={dialog === 'delete'} onClose={() => setDialog(null)} title={`Delete ${title}?`}>
        <Stack>
          <Text size="sm">
            {c.full_name} is removed from this draft effective date. What was committed stays in the project&apos;s
            commits.
          </Text>
          {remove.isError && (
            <Alert color="red">The component could not be deleted: {serverMessage(remove.error)}</Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)}>
              Cancel
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
      {dialog === 'clone' && (
        <CloneDialog
          component={c}
          onClose={() => setDialog(null)}
          onCloned={(copy) => {
            done(`Cloned ${title} as ${copy.label || copy.name}.`);
            props.onCloned?.(copy);
          }}
        />
      )}
      {dialog === 'move' && (
        <MoveDialog
          component={c}
          packages={props.packages}
          onClose={() => setDialog(null)}
          onMoved={(moved) => done(`Moved ${title} to ${moved.full_name}.`)}
        />
      )}
    </>
  );
}

function CloneDialog(props: {
  component: ComponentJson;
  onClose: () => void;
  onCloned: (copy: ComponentJson) => void;
}) {
  const c = props.component;
  const api = useApiClient();
  const [name, setName] = useState(`${c.name}_copy`);
  const [label, setLabel] = useState(c.label ? `${c.label} (copy)` : '');
  const nameError = COMPONENT_NAME.test(name)
    ? null
    : 'A name is letters, digits and underscores, starting with a letter.';
  const clone = useMutation({
    mutationFn: async () => {
      const source = await api.get<ComponentJson>(`/rules/brl-components/${c.id}/effective-date/${c.effective_date}/`);
      return api.post<ComponentJson>(`/rules/brl-components/effective-date/${c.effective_date}/`, {
        package_id: c.package,
        name,
        label,
        folder: c.folder,
        component_type: c.component_type,
        body: clonedBody(c.component_type, source.body ?? '', name, label),
        tags: c.tags,
        state: c.state,
      });
    },
    onSuccess: props.onCloned,
  });
  return (
    <Modal opened onClose={props.onClose} title={`Clone ${c.label || c.name}`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!nameError) clone.mutate();
        }}
      >
        <Stack>
          <TextInput label="Label" value={label} onChange={(e) => setLabel(e.currentTarget.value)} />
          <TextInput
            label="Name"
            required
            value={name}
            error={nameError}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          {clone.isError && <Alert color="red">The component could not be cloned: {serverMessage(clone.error)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={clone.isPending} disabled={nameError !== null}>
              Clone
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function MoveDialog(props: {
  component: ComponentJson;
  packages: { id: number; name: string }[];
  onClose: () => void;
  onMoved: (moved: ComponentJson) => void;
}) {
  const c = props.component;
  const api = useApiClient();
  const [packageId, setPackageId] = useState(String(c.package));
  const [folder, setFolder] = useState(c.folder);
  const folderError = FOLDER.test(folder.trim()) ? null : 'A folder is names separated by /.';
  const move = useMutation({
    mutationFn: () =>
      api.put<ComponentJson>('/rules/brl-components/move_component/', {
        package_id: Number(packageId),
        full_name: c.full_name,
        folder: folder.trim(),
      }),
    onSuccess: props.onMoved,
  });
  const unchanged = Number(packageId) === c.package && folder.trim() === c.folder;
  return (
    <Modal opened onClose={props.onClose} title={`Move ${c.label || c.name}`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!folderError && !unchanged) move.mutate();
        }}
      >
        <Stack>
          <Select
            label="Package"
            allowDeselect={false}
            data={props.packages.map((p) => ({ value: String(p.id), label: p.name }))}
            value={packageId}
            onChange={(v) => v && setPackageId(v)}
            comboboxProps={{ withinPortal: false }}
          />
          <TextInput
            label="Folder"
            description="Names separated by /; empty for the package's top level."
            value={folder}
            error={folderError}
            onChange={(e) => setFolder(e.currentTarget.value)}
          />
          {move.isError && <Alert color="red">The component could not be moved: {serverMessage(move.error)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={move.isPending} disabled={folderError !== null || unchanged}>
              Move
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Renames a folder of a package: every component in it (and below) moves (`PUT move_components/`). */
export function FolderActions(props: { packageId: number; path: string; rights: ComponentRights }) {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [to, setTo] = useState(props.path);
  const error = FOLDER.test(to.trim()) ? null : 'A folder is names separated by /.';
  const rename = useMutation({
    mutationFn: () =>
      api.put<{ moved: number }>('/rules/brl-components/move_components/', {
        package_id: props.packageId,
        from_folder: props.path,
        to_folder: to.trim(),
      }),
    onSuccess: ({ moved }) => {
      services.showToast({
        message: `Renamed ${props.path} to ${to.trim() || 'the top level'} (${moved === 1 ? '1 component' : `${moved} components`}).`,
        kind: 'success',
      });
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: ['rules'] });
    },
  });
  if (!props.rights.update) return null;
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" size="sm" aria-label={`Actions for folder ${props.path}`}>
            <IconDots size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            onClick={() => {
              setTo(props.path);
              setOpen(true);
            }}
          >
            Rename folder…
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Rename folder ${props.path}`}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!error && to.trim() !== props.path) rename.mutate();
          }}
        >
          <Stack>
            <TextInput
              label="New folder"
              description="Names separated by /; the components in it and in its folders move."
              value={to}
              error={error}
              onChange={(e) => setTo(e.currentTarget.value)}
            />
            {rename.isError && (
              <Alert color="red">The folder could not be renamed: {serverMessage(rename.error)}</Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={rename.isPending} disabled={error !== null || to.trim() === props.path}>
                Rename
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
