import { CommandPalette } from '../palette/command-palette.js';
import { QuickSearchModal } from '../quick-search/quick-search-modal.js';
import { ShortcutsModal } from '../shortcuts/shortcuts-modal.js';
import { HelpModal } from './help-modal.js';
import { ToastStack } from './toast-stack.js';

/**
 * The overlays every layout shares. Loaded as their own chunk right after the first paint: cmdk,
 * the modals and the support-ticket form are not needed to show the first page, and keeping them
 * out of the entry chunk keeps the initial download small.
 */
export default function ShellOverlays() {
  return (
    <>
      <CommandPalette />
      <ShortcutsModal />
      <QuickSearchModal />
      <HelpModal />
      <ToastStack />
    </>
  );
}
