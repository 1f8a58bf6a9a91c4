import { Alert, Badge, Button, Group, Loader, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useApiClient } from '@atrium/sdk';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  STATUS_LABELS,
  TYPE_LABELS,
  type ComponentJson,
  type EffectiveDateJson,
  type ListJson,
  type ProjectJson,
} from '../../shared/api-types.js';
import { formatDay } from '../format.js';
import { ComponentTree } from '../projects/component-tree.js';
import { currentDate, useComponentRights, type ComponentRights } from '../projects/component-actions.js';
import { ExportDialog, useExportRight } from '../projects/export-dialog.js';
import { ImportDialog, useImportRight } from '../projects/import-dialog.js';
import { NewComponentDialog } from '../projects/new-component-dialog.js';
import { PublishDialog, usePublishRight } from '../projects/publish-dialog.js';
import { rulesComponentRoute } from '../routes.js';

const STATUS_COLORS = { draft: 'yellow', published: 'green', archived: 'gray' } as const;
const TYPE_FILTER = Object.entries(TYPE_LABELS).map(([value, label]) => ({ value, label }));

/** Rules projects: their effective dates, and the packages, folders and components of the current one. */
export default function ProjectsPage() {
  const api = useApiClient();
  const rights = useComponentRights();
  const mayExport = useExportRight();
  const mayPublish = usePublishRight();
  const mayImport = useImportRight();
  const [importing, setImporting] = useState(false);
  const projects = useQuery({
    queryKey: ['rules', 'projects'],
    queryFn: () => api.get<ListJson<ProjectJson>>('/rules/projects/'),
  });
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>Rules</Title>
        {mayImport && (
          <Button size="xs" variant="default" onClick={() => setImporting(true)}>
            Import…
          </Button>
        )}
      </Group>
      {importing && <ImportDialog onClose={() => setImporting(false)} />}
      {projects.isPending && <Loader role="status" aria-label="Loading rules projects" />}
      {projects.isError && <Alert color="red">The rules projects could not be loaded: {projects.error.message}</Alert>}
      {projects.data?.results.length === 0 && <Text>There are no rules projects yet.</Text>}
      {projects.data?.results.map((project) => (
        <ProjectCard key={project.id} project={project} rights={rights} mayExport={mayExport} mayPublish={mayPublish} />
      ))}
    </Stack>
  );
}

function ProjectCard({
  project,
  rights,
  mayExport,
  mayPublish,
}: {
  project: ProjectJson;
  rights: ComponentRights;
  mayExport: boolean;
  mayPublish: boolean;
}) {
  const api = useApiClient();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [publishing, setPublishing] = useState<EffectiveDateJson | null>(null);
  const [filter, setFilter] = useState('');
  const [type, setType] = useState<string | null>(null);
  const date = currentDate(project.effective_dates);
  const draft = date?.status === 'draft';
  const packages = useQuery({
    queryKey: ['rules', 'packages', project.id],
    queryFn: () =>
      api.get<ListJson<{ id: number; name: string }>>('/rules/package/', {
        query: { project_id: String(project.id) },
      }),
  });
  const components = useQuery({
    queryKey: ['rules', 'components', project.id],
    queryFn: () =>
      api.get<ListJson<ComponentJson>>('/rules/brl-components/', { query: { project_id: String(project.id) } }),
  });
  const needle = filter.trim().toLowerCase();
  const shown = (components.data?.results ?? []).filter(
    (c) =>
      (!type || c.component_type === type) && (!needle || `${c.label} ${c.full_name}`.toLowerCase().includes(needle)),
  );
  const pending = packages.isPending || components.isPending;
  const error = packages.error ?? components.error;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2}>{project.label}</Title>
          <Group gap="xs">
            {mayExport && packages.data && (
              <Button
                size="xs"
                variant="default"
                onClick={() => setExporting(true)}
                aria-label={`Export ${project.label}`}
              >
                Export…
              </Button>
            )}
            {rights.create && draft && packages.data && packages.data.results.length > 0 && (
              <Button size="xs" onClick={() => setCreating(true)} aria-label={`New component in ${project.label}`}>
                New component
              </Button>
            )}
          </Group>
        </Group>
        {project.description && <Text c="dimmed">{project.description}</Text>}
        <Group gap="xs" aria-label={`Effective dates of ${project.label}`}>
          {project.effective_dates.map((d) => (
            <Group key={d.id} gap={4} wrap="nowrap">
              <Badge color={STATUS_COLORS[d.status]} variant="light">
                {formatDay(d.effective_date)} · {STATUS_LABELS[d.status]}
              </Badge>
              {mayPublish && d.status === 'draft' && (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  onClick={() => setPublishing(d)}
                  aria-label={`Publish ${formatDay(d.effective_date)} of ${project.label}`}
                >
                  Publish…
                </Button>
              )}
            </Group>
          ))}
        </Group>
        {date && (
          <Text size="sm" c="dimmed">
            Components on {formatDay(date.effective_date)} ({STATUS_LABELS[date.status].toLowerCase()})
            {draft ? '' : ': not a draft, so they cannot be changed.'}
          </Text>
        )}
        {pending && <Loader size="sm" role="status" aria-label={`Loading the components of ${project.label}`} />}
        {error && <Alert color="red">The components could not be loaded: {error.message}</Alert>}
        {packages.data && components.data && (
          <>
            <Group gap="sm" align="flex-end" wrap="wrap">
              <TextInput
                size="xs"
                label="Filter components"
                placeholder="Label or full name"
                value={filter}
                onChange={(e) => setFilter(e.currentTarget.value)}
                w={240}
              />
              <Select
                size="xs"
                label="Type"
                placeholder="All types"
                clearable
                data={TYPE_FILTER}
                value={type}
                onChange={setType}
                w={160}
              />
              <Text size="xs" c="dimmed" aria-live="polite">
                {shown.length === 1 ? '1 component' : `${shown.length} components`}
              </Text>
            </Group>
            <ComponentTree
              projectId={project.id}
              label={`Components of ${project.label}`}
              packages={packages.data.results}
              components={shown}
              draft={draft}
              rights={rights}
            />
          </>
        )}
        {exporting && packages.data && (
          <ExportDialog
            projectId={project.id}
            projectLabel={project.label}
            packages={packages.data.results}
            onClose={() => setExporting(false)}
          />
        )}
        {publishing && (
          <PublishDialog
            projectId={project.id}
            projectLabel={project.label}
            date={publishing}
            onClose={() => setPublishing(null)}
          />
        )}
        {creating && date && packages.data && (
          <NewComponentDialog
            projectId={project.id}
            projectLabel={project.label}
            date={date}
            packages={packages.data.results}
            onClose={() => setCreating(false)}
            onCreated={(created) => {
              setCreating(false);
              void navigate(
                `${rulesComponentRoute.link({ projectId: project.id, componentId: created.id })}?effective_date=${created.effective_date}`,
              );
            }}
          />
        )}
      </Stack>
    </Paper>
  );
}
