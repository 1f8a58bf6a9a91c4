import { ActionIcon, Group } from '@mantine/core';
import { useState, type DragEvent } from 'react';

/**
 * Drag-and-drop plus up/down buttons for a table's rows: `rowProps(index)` goes on each row,
 * `<OrderButtons>` in a cell. Both call `onMove(from, to)`; nothing moves when `disabled`.
 */
export function useRowOrdering(onMove: (from: number, to: number) => void, disabled: boolean) {
  const [dragged, setDragged] = useState<number | null>(null);
  const rowProps = (index: number) =>
    disabled
      ? {}
      : {
          draggable: true,
          onDragStart: (e: DragEvent) => {
            setDragged(index);
            e.dataTransfer.effectAllowed = 'move';
          },
          onDragOver: (e: DragEvent) => e.preventDefault(),
          onDrop: (e: DragEvent) => {
            e.preventDefault();
            if (dragged !== null && dragged !== index) onMove(dragged, index);
            setDragged(null);
          },
          style: { cursor: 'grab' },
        };
  return { rowProps };
}

export function OrderButtons({
  index,
  count,
  name,
  onMove,
}: {
  index: number;
  count: number;
  name: string;
  onMove(from: number, to: number): void;
}) {
  return (
    <Group gap={2} wrap="nowrap">
      <ActionIcon
        variant="subtle"
        size="sm"
        aria-label={`Move ${name} up`}
        disabled={index === 0}
        onClick={() => onMove(index, index - 1)}
      >
        ↑
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        size="sm"
        aria-label={`Move ${name} down`}
        disabled={index === count - 1}
        onClick={() => onMove(index, index + 1)}
      >
        ↓
      </ActionIcon>
    </Group>
  );
}
