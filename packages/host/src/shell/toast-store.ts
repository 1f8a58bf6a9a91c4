import type { ToastKind, ToastRequest } from '@atrium/sdk';
import { createStore } from 'zustand/vanilla';

/** Toasts shown by commands and pages; each goes away after its duration (spec: 5 s unless told). */
export const DEFAULT_TOAST_DURATION_MS = 5_000;

export interface Toast {
  id: number;
  message: string;
  title: string | undefined;
  kind: ToastKind;
}

export interface ToastState {
  toasts: readonly Toast[];
  show(request: ToastRequest): number;
  dismiss(id: number): void;
}

export function createToastStore() {
  let nextId = 1;
  return createStore<ToastState>()((set, get) => ({
    toasts: [],
    show(request) {
      const id = nextId++;
      set({
        toasts: [...get().toasts, { id, message: request.message, title: request.title, kind: request.kind ?? 'info' }],
      });
      setTimeout(() => get().dismiss(id), request.duration ?? DEFAULT_TOAST_DURATION_MS);
      return id;
    },
    dismiss(id) {
      set({ toasts: get().toasts.filter((toast) => toast.id !== id) });
    },
  }));
}
