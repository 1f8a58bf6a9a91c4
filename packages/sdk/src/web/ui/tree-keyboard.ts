import { useRef, type KeyboardEvent, type MutableRefObject } from 'react';

/** What the helper needs of a react-arborist TreeApi (kept structural: the SDK does not depend on it). */
export interface TreeKeyboardNode<T> {
  data: T;
  isInternal: boolean;
  toggle(): void;
}

interface FocusedTree<T> {
  focusedNode: TreeKeyboardNode<T> | null;
}

/**
 * Enter on a tree row does what a click on it does (react-arborist's own Enter only starts a rename,
 * and its Tab leaves the tree, so the links and buttons inside rows are out of a keyboard user's
 * reach): spread the answer on a wrapper around the `<Tree>` and pass `treeRef` as its `ref`.
 *
 *   const keys = useTreeKeyboard<Node>((node) => (node.isInternal ? node.toggle() : navigate(linkOf(node.data))));
 *   <div onKeyDown={keys.onKeyDown}><Tree ref={keys.treeRef} …/></div>
 *
 * Arrow keys move the focus (react-arborist), Enter opens the focused row.
 */
export function useTreeKeyboard<T>(open: (node: TreeKeyboardNode<T>) => void): {
  treeRef: MutableRefObject<any>;
  onKeyDown(event: KeyboardEvent<HTMLElement>): void;
} {
  const treeRef = useRef<FocusedTree<T> | null>(null);
  return {
    treeRef,
    onKeyDown(event) {
      if (event.key !== 'Enter' || event.defaultPrevented) return;
      // Only when the tree itself has the focus, not a control inside a row (it handles its own Enter).
      const target = event.target as HTMLElement;
      if (target.closest('a, button, input, textarea, select')) return;
      const node = treeRef.current?.focusedNode;
      if (!node) return;
      event.preventDefault();
      open(node);
    },
  };
}
