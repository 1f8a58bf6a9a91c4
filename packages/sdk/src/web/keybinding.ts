/** A shortcut bound to a command id: `'g p'` (chord), `'?'`, `'mod+k'` (Cmd on macOS, Ctrl elsewhere). */
export interface KeybindingDefinition {
  key: string;
  command: string;
  args?: unknown;
  when?: string;
  /** Shown in the `?` modal; defaults to the command's title. */
  description?: string;
}

/** What the keybinding manager needs from a keyboard event: plain data, so tests need no DOM. */
export interface KeyEventLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
  /** Where focus is; editable targets suppress chords and plain-key shortcuts. */
  target?: KeyTargetInfo;
}

export interface KeyTargetInfo {
  tagName?: string;
  /** `type` of an input element: buttons and checkboxes are not text entry. */
  inputType?: string;
  isContentEditable?: boolean;
  /** Inside a code editor (Monaco). */
  isEditor?: boolean;
}
