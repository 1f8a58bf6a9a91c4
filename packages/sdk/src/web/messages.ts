/**
 * Shared UI texts from the spec, built in one place so every module words them the same way.
 */

export const CONFIRM_YES = 'Yes';

/** Spec (Error catalogue): what a refused operation (403) says where the user acted. */
export const FORBIDDEN_OPERATION_MESSAGE = 'This operation is not allowed. (Error code: 403)';
export const CONFIRM_CANCEL = 'Cancel';

/** 'Are you sure you want to delete this claim?' */
export function deleteConfirmationMessage(label: string, verb = 'delete'): string {
  return `Are you sure you want to ${verb} this ${label}?`;
}

export const BATCH_FAILURE_TITLE = 'Batch Action Failed';
export const BATCH_FAILURE_ERROR_COLUMN = 'Error Message';
export const BATCH_FAILURE_OK = 'Ok';

export function batchFailureMessage(failed: number, total: number): string {
  return `We are sorry, batch action failed for ${failed} items out of ${total}`;
}

export interface BatchFailureDialog<Row> {
  title: string;
  message: string;
  columns: string[];
  rows: Row[];
  ok: string;
}

/** The batch-failure dialog's content; `title` defaults to 'Batch Action Failed'. */
export function batchFailureDialog<Row extends { errorMessage: string }>(
  failures: Row[],
  total: number,
  options: { title?: string; columns?: string[] } = {},
): BatchFailureDialog<Row> {
  return {
    title: options.title ?? BATCH_FAILURE_TITLE,
    message: batchFailureMessage(failures.length, total),
    columns: [...(options.columns ?? []), BATCH_FAILURE_ERROR_COLUMN],
    rows: failures,
    ok: BATCH_FAILURE_OK,
  };
}

/** Activity sidebar: 'You have unsaved changes in Notes. Please save or cancel your changes.' */
export function unsavedChangesMessage(panelTitle: string): string {
  return `You have unsaved changes in ${panelTitle}. Please save or cancel your changes.`;
}

/** Toast durations ("Business constants"): 5 s by default (plugins, mappings), 15 s for subscriptions. */
export const TOAST_DURATIONS = {
  default: 5000,
  subscription: 15000,
} as const;
