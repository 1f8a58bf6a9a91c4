import { beforeEach, describe, expect, it } from 'vitest';
import { openTemplates } from './open-templates.js';

describe('open templates', () => {
  beforeEach(() => openTemplates.reset());

  it('opens tabs once, in order, and renames an open one', () => {
    openTemplates.open({ id: '1', name: 'Homeowners' });
    openTemplates.open({ id: '2', name: 'Letter' });
    openTemplates.open({ id: '1', name: 'Homeowners dec' });
    expect(openTemplates.get().tabs).toEqual([
      { id: '1', name: 'Homeowners dec' },
      { id: '2', name: 'Letter' },
    ]);
  });

  it('keeps unsaved source per template and version, and drops it when the tab closes', () => {
    openTemplates.open({ id: '1', name: 'A' });
    openTemplates.open({ id: '2', name: 'B' });
    openTemplates.open({ id: '3', name: 'C' });
    openTemplates.setBuffer('2', 7, 'typed');
    expect(openTemplates.bufferOf('2', 7)).toBe('typed');
    expect(openTemplates.bufferOf('2', 8)).toBeNull();
    // Closing a middle tab shows the one after it; the last shows the one before.
    expect(openTemplates.close('2')).toEqual({ id: '3', name: 'C' });
    expect(openTemplates.bufferOf('2', 7)).toBeNull();
    expect(openTemplates.close('3')).toEqual({ id: '1', name: 'A' });
    expect(openTemplates.close('1')).toBeNull();
    expect(openTemplates.close('9')).toBeNull();
  });

  it('forgets a buffer once saved', () => {
    openTemplates.setBuffer('1', 3, 'x');
    openTemplates.setBuffer('1', 3, null);
    expect(openTemplates.get().buffers).toEqual({});
  });
});
