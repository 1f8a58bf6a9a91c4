/** Values a `when` context key may hold. */
export type ContextValue = string | number | boolean | null | undefined;

/** The keys the host sets; plugins add their own under `<pluginId>.*`. */
export interface HostContextKeys {
  /** Current route name, e.g. `claims:exposures` ('' before the first navigation). */
  route: string;
  /** Effective role name, null before one is chosen. */
  role: string | null;
  modalOpen: boolean;
  editorFocus: boolean;
  inputFocus: boolean;
}

export const HOST_CONTEXT_KEYS = ['route', 'role', 'modalOpen', 'editorFocus', 'inputFocus'] as const;

export type ContextSnapshot = Readonly<Record<string, ContextValue>>;

export const DEFAULT_HOST_CONTEXT: HostContextKeys = {
  route: '',
  role: null,
  modalOpen: false,
  editorFocus: false,
  inputFocus: false,
};
