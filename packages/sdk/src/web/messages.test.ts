import { describe, expect, it } from 'vitest';
import {
  batchFailureDialog,
  batchFailureMessage,
  deleteConfirmationMessage,
  TOAST_DURATIONS,
  unsavedChangesMessage,
} from './messages.js';

describe('shared messages', () => {
  it('delete confirmation', () => {
    expect(deleteConfirmationMessage('claim')).toBe('Are you sure you want to delete this claim?');
    expect(deleteConfirmationMessage('data mapping', 'remove')).toBe(
      'Are you sure you want to remove this data mapping?',
    );
  });

  it('batch failure', () => {
    expect(batchFailureMessage(2, 5)).toBe('We are sorry, batch action failed for 2 items out of 5');
    const dialog = batchFailureDialog(
      [
        { id: '1', errorMessage: 'Locked' },
        { id: '2', errorMessage: 'Missing' },
      ],
      7,
      { columns: ['Claim'] },
    );
    expect(dialog).toMatchObject({
      title: 'Batch Action Failed',
      message: 'We are sorry, batch action failed for 2 items out of 7',
      columns: ['Claim', 'Error Message'],
      ok: 'Ok',
    });
    expect(batchFailureDialog([], 1, { title: 'Reassign failed' }).title).toBe('Reassign failed');
  });

  it('unsaved notes warning and toast durations', () => {
    expect(unsavedChangesMessage('Notes')).toBe(
      'You have unsaved changes in Notes. Please save or cancel your changes.',
    );
    expect(TOAST_DURATIONS).toEqual({ default: 5000, subscription: 15000 });
  });
});
