import { Anchor, Badge, Code, Group, Text, UnstyledButton } from '@mantine/core';
import { useTreeKeyboard } from '@atrium/sdk';
import { Tree, type NodeRendererProps } from 'react-arborist';
import { createContext, useContext } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { TYPE_LABELS, type ComponentJson } from '../../shared/api-types.js';
import { rulesComponentRoute } from '../routes.js';
import { ComponentActions, FolderActions, type ComponentRights } from './component-actions.js';
import { componentTree, type TreeRow } from './component-text.js';

const ROW_HEIGHT = 34;

interface TreeContext {
  projectId: number;
  packages: { id: number; name: string }[];
  draft: boolean;
  rights: ComponentRights;
}
const Context = createContext<TreeContext | null>(null);

function countRows(nodes: TreeRow[]): number {
  return nodes.reduce((sum, node) => sum + 1 + countRows(node.children ?? []), 0);
}

function Row({ node, style }: NodeRendererProps<TreeRow>) {
  const ctx = useContext(Context)!;
  const data = node.data;
  const c = data.component;
  return (
    <div style={style} role="presentation">
      <Group gap={6} wrap="nowrap" h={ROW_HEIGHT} pr="xs">
        {c ? (
          <>
            <Anchor
              component={Link}
              to={rulesComponentRoute.link({ projectId: ctx.projectId, componentId: c.id })}
              size="sm"
              truncate
              style={{ minWidth: 0 }}
            >
              {data.label}
            </Anchor>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {TYPE_LABELS[c.component_type]}
            </Text>
            {c.state === 'disabled' && (
              <Badge size="xs" variant="light" color="gray">
                Disabled
              </Badge>
            )}
            {c.uncommitted && (
              <Badge size="xs" variant="outline">
                Uncommitted
              </Badge>
            )}
            <div style={{ marginLeft: 'auto' }}>
              <ComponentActions component={c} packages={ctx.packages} draft={ctx.draft} rights={ctx.rights} />
            </div>
          </>
        ) : (
          <>
            <UnstyledButton
              onClick={() => node.toggle()}
              // Named by its visible text (axe: label-content-name-mismatch); open or closed is its state.
              aria-expanded={node.isOpen}
            >
              <Group gap={6} wrap="nowrap">
                <Text size="sm" w={12} aria-hidden>
                  {node.isOpen ? '▾' : '▸'}
                </Text>
                {data.kind === 'package' ? (
                  // A package's name is an identifier (the first part of every full name in it).
                  <Code fw={600}>{data.label}</Code>
                ) : (
                  <Text size="sm" fw={500}>
                    {data.label}
                  </Text>
                )}
                {data.kind === 'package' && (
                  <Text size="xs" c="dimmed">
                    Package
                  </Text>
                )}
              </Group>
            </UnstyledButton>
            {data.kind === 'folder' && data.packageId !== undefined && data.path !== undefined && (
              <div style={{ marginLeft: 'auto' }}>
                <FolderActions packageId={data.packageId} path={data.path} rights={ctx.rights} />
              </div>
            )}
          </>
        )}
      </Group>
    </div>
  );
}

/**
 * A project's packages, folders and components (react-arborist, every level open, tall enough for
 * all its rows so the page scrolls rather than the tree), each component with its actions.
 */
export function ComponentTree(props: {
  projectId: number;
  label: string;
  packages: { id: number; name: string }[];
  components: ComponentJson[];
  draft: boolean;
  rights: ComponentRights;
}) {
  const navigate = useNavigate();
  const data = componentTree(props.packages, props.components);
  // Enter on a focused component opens it; on a package or folder it opens or closes it.
  const keys = useTreeKeyboard<TreeRow>((node) =>
    node.data.component
      ? navigate(rulesComponentRoute.link({ projectId: props.projectId, componentId: node.data.component.id }))
      : node.toggle(),
  );
  return (
    <Context.Provider
      value={{ projectId: props.projectId, packages: props.packages, draft: props.draft, rights: props.rights }}
    >
      <div onKeyDown={keys.onKeyDown}>
        <Tree<TreeRow>
          ref={keys.treeRef}
          data={data}
          aria-label={props.label}
          openByDefault
          disableDrag
          disableDrop
          disableEdit
          width="100%"
          height={Math.max(ROW_HEIGHT, countRows(data) * ROW_HEIGHT)}
          rowHeight={ROW_HEIGHT}
          indent={20}
        >
          {Row}
        </Tree>
      </div>
    </Context.Provider>
  );
}
