import { Group, Text, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTreeKeyboard } from '@atrium/sdk';
import { Tree, type NodeRendererProps } from 'react-arborist';

/** One row of a catalog tree (products and versions, risk types). */
export interface CatalogTreeNode {
  id: string;
  label: string;
  /** Extra content after the label (status badges). */
  extra?: ReactNode;
  /** Highlighted: the selected version, the open risk type. */
  active?: boolean;
  children?: CatalogTreeNode[];
  onOpen?(): void;
}

const ROW_HEIGHT = 30;

function countRows(nodes: CatalogTreeNode[]): number {
  return nodes.reduce((sum, node) => sum + 1 + countRows(node.children ?? []), 0);
}

function Row({ node, style }: NodeRendererProps<CatalogTreeNode>) {
  const data = node.data;
  const hasChildren = (data.children?.length ?? 0) > 0;
  return (
    <div style={style} role="presentation">
      <Group gap={4} wrap="nowrap" h={ROW_HEIGHT}>
        <UnstyledButton
          aria-label={hasChildren ? `${node.isOpen ? 'Collapse' : 'Expand'} ${data.label}` : undefined}
          onClick={() => node.toggle()}
          w={16}
          style={{ visibility: hasChildren ? 'visible' : 'hidden' }}
        >
          {node.isOpen ? '▾' : '▸'}
        </UnstyledButton>
        <UnstyledButton
          onClick={() => data.onOpen?.()}
          aria-current={data.active ? 'true' : undefined}
          title={data.label}
          style={{ minWidth: 0 }}
        >
          <Text size="sm" fw={data.active ? 700 : 400} c={data.active ? 'blue' : undefined} truncate>
            {data.label}
          </Text>
        </UnstyledButton>
        {data.extra}
      </Group>
    </div>
  );
}

/**
 * A read-only tree (react-arborist), every level open, tall enough for all its rows so the page
 * scrolls rather than the tree.
 */
export function CatalogTree({
  data,
  label,
  width = '100%',
}: {
  data: CatalogTreeNode[];
  label: string;
  width?: number | string;
}) {
  // Enter on a focused row opens it, as a click on its label does (a row without a page toggles).
  const keys = useTreeKeyboard<CatalogTreeNode>((node) => (node.data.onOpen ? node.data.onOpen() : node.toggle()));
  return (
    <div onKeyDown={keys.onKeyDown}>
      <Tree<CatalogTreeNode>
        ref={keys.treeRef}
        data={data}
        aria-label={label}
        openByDefault
        disableDrag
        disableDrop
        disableEdit
        width={width}
        height={Math.max(ROW_HEIGHT, countRows(data) * ROW_HEIGHT)}
        rowHeight={ROW_HEIGHT}
        indent={18}
      >
        {Row}
      </Tree>
    </div>
  );
}
