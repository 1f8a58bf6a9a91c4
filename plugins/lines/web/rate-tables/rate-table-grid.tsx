import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import {
  applyPaste,
  parseClipboardCells,
  withoutHeaderRow,
  type CellPosition,
  type CellProblem,
  type GridCells,
  type GridColumn,
  type PasteResult,
} from './rate-table-grid-model.js';

/**
 * A spreadsheet-like grid over text cells. One element holds the focus (`role="grid"`); the selected
 * cell moves with the arrows, Tab/Shift+Tab, Home/End and PageUp/PageDown. Typing or F2/Enter edits
 * the cell (Enter commits and moves down, Tab right, Escape cancels); Delete clears it. A paste of
 * cells copied from a spreadsheet lands with its top-left corner on the selected cell and adds rows
 * as needed. Only the rows in view are rendered, so thousands of rows stay fast.
 */
export interface RateTableGridProps {
  columns: readonly GridColumn[];
  cells: GridCells;
  onChange(cells: GridCells, paste?: PasteResult): void;
  readOnly: boolean;
  selected: CellPosition;
  onSelect(position: CellPosition): void;
  problems?: readonly CellProblem[];
  /** Pixels of the scrolling area (the rows in view are computed from it). */
  height?: number;
}

export const ROW_HEIGHT = 30;
const OVERSCAN = 8;

export function RateTableGrid({
  columns,
  cells,
  onChange,
  readOnly,
  selected,
  onSelect,
  problems = [],
  height = 420,
}: RateTableGridProps) {
  const [editing, setEditing] = useState<{ value: string } | null>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const rowCount = cells.length;
  const colCount = columns.length;
  const problemAt = new Map(problems.map((p) => [`${p.row}:${p.col}`, p.message]));

  // Keep the selected row in view.
  useEffect(() => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    const top = selected.row * ROW_HEIGHT;
    if (top < scroller.scrollTop) scroller.scrollTop = top;
    else if (top + ROW_HEIGHT > scroller.scrollTop + height - ROW_HEIGHT)
      scroller.scrollTop = top + 2 * ROW_HEIGHT - height;
  }, [selected.row, height]);

  useEffect(() => {
    if (editing) inputRef.current?.focus();
  }, [editing]);

  const clamp = (position: CellPosition): CellPosition => ({
    row: Math.max(0, Math.min(rowCount - 1, position.row)),
    col: Math.max(0, Math.min(colCount - 1, position.col)),
  });
  const move = (dRow: number, dCol: number) => onSelect(clamp({ row: selected.row + dRow, col: selected.col + dCol }));

  const setCell = (position: CellPosition, value: string) => {
    const next = cells.map((line, r) =>
      r === position.row ? line.map((c, i) => (i === position.col ? value : c)) : line,
    );
    onChange(next);
  };

  const commit = (then?: () => void) => {
    if (editing && rowCount > 0) setCell(selected, editing.value);
    setEditing(null);
    gridRef.current?.focus();
    then?.();
  };

  const onGridKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (editing || rowCount === 0) return;
    const page = Math.max(1, Math.floor(height / ROW_HEIGHT) - 1);
    const keys: Record<string, () => void> = {
      ArrowUp: () => move(-1, 0),
      ArrowDown: () => move(1, 0),
      ArrowLeft: () => move(0, -1),
      ArrowRight: () => move(0, 1),
      Tab: () => move(0, event.shiftKey ? -1 : 1),
      PageUp: () => move(-page, 0),
      PageDown: () => move(page, 0),
      Home: () => onSelect(clamp({ row: event.ctrlKey ? 0 : selected.row, col: 0 })),
      End: () => onSelect(clamp({ row: event.ctrlKey ? rowCount - 1 : selected.row, col: colCount - 1 })),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
      return;
    }
    if (readOnly || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'Enter' || event.key === 'F2') {
      event.preventDefault();
      setEditing({ value: cells[selected.row]?.[selected.col] ?? '' });
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      setCell(selected, '');
    } else if (event.key.length === 1) {
      event.preventDefault();
      setEditing({ value: event.key });
    }
  };

  const onEditorKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commit(() => move(1, 0));
    } else if (event.key === 'Tab') {
      event.preventDefault();
      commit(() => move(0, event.shiftKey ? -1 : 1));
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setEditing(null);
      gridRef.current?.focus();
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    if (readOnly || editing) return;
    const raw = event.clipboardData.getData('text/plain');
    if (!raw) return;
    event.preventDefault();
    const at = rowCount === 0 ? { row: 0, col: 0 } : selected;
    const block = withoutHeaderRow(parseClipboardCells(raw), columns, at.col);
    if (block.length === 0) return;
    const result = applyPaste(cells, at, block, colCount);
    onChange(result.cells, result);
  };

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rowCount, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
  const template = `56px repeat(${colCount}, minmax(110px, 1fr))`;

  return (
    <div
      ref={gridRef}
      role="grid"
      aria-label="Rate table rows"
      aria-rowcount={rowCount + 1}
      aria-colcount={colCount}
      aria-readonly={readOnly}
      tabIndex={0}
      data-editor=""
      onKeyDown={onGridKeyDown}
      onPaste={onPaste}
      style={{ border: '1px solid var(--mantine-color-gray-4)', outline: 'none', fontSize: 13 }}
    >
      <div
        role="row"
        aria-rowindex={1}
        style={{
          display: 'grid',
          gridTemplateColumns: template,
          background: 'var(--mantine-color-gray-1)',
          fontWeight: 600,
        }}
      >
        <div role="columnheader" style={cellStyle}>
          #
        </div>
        {columns.map((column) => (
          <div key={column.label} role="columnheader" style={cellStyle}>
            {column.label}
          </div>
        ))}
      </div>
      <div
        ref={scrollRef}
        onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
        style={{ height: Math.min(height, Math.max(rowCount, 1) * ROW_HEIGHT + 2), overflowY: 'auto' }}
      >
        <div role="rowgroup" style={{ height: rowCount * ROW_HEIGHT, position: 'relative' }}>
          {cells.slice(first, last).map((line, offset) => {
            const rowIndex = first + offset;
            return (
              <div
                key={rowIndex}
                role="row"
                aria-rowindex={rowIndex + 2}
                style={{
                  display: 'grid',
                  gridTemplateColumns: template,
                  position: 'absolute',
                  top: rowIndex * ROW_HEIGHT,
                  left: 0,
                  right: 0,
                  height: ROW_HEIGHT,
                }}
              >
                <div role="rowheader" style={{ ...cellStyle, color: 'var(--mantine-color-dimmed)' }}>
                  {rowIndex + 1}
                </div>
                {columns.map((column, col) => {
                  const isSelected = selected.row === rowIndex && selected.col === col;
                  const problem = problemAt.get(`${rowIndex}:${col}`);
                  return (
                    <div
                      key={column.label}
                      role="gridcell"
                      aria-selected={isSelected}
                      aria-invalid={problem ? true : undefined}
                      aria-label={`${column.label} row ${rowIndex + 1}`}
                      title={problem}
                      onMouseDown={(event) => {
                        if (editing) commit();
                        event.preventDefault();
                        onSelect({ row: rowIndex, col });
                        gridRef.current?.focus();
                      }}
                      onDoubleClick={() => !readOnly && setEditing({ value: line[col] ?? '' })}
                      style={{
                        ...cellStyle,
                        textAlign: column.part === 'exact' ? 'left' : 'right',
                        outline: isSelected ? '2px solid var(--mantine-color-blue-6)' : undefined,
                        outlineOffset: -2,
                        background: problem ? 'var(--mantine-color-red-0)' : undefined,
                      }}
                    >
                      {isSelected && editing ? (
                        <input
                          ref={inputRef}
                          aria-label={`Edit ${column.label} row ${rowIndex + 1}`}
                          value={editing.value}
                          onChange={(event) => setEditing({ value: event.currentTarget.value })}
                          onKeyDown={onEditorKeyDown}
                          onBlur={() => commit()}
                          style={{ width: '100%', border: 0, outline: 'none', font: 'inherit', background: 'white' }}
                        />
                      ) : (
                        line[col]
                      )}
                    </div>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

const cellStyle = {
  padding: '4px 8px',
  borderRight: '1px solid var(--mantine-color-gray-3)',
  borderBottom: '1px solid var(--mantine-color-gray-3)',
  overflow: 'hidden',
  whiteSpace: 'nowrap' as const,
  textOverflow: 'ellipsis',
  lineHeight: '21px',
};
