import { useState } from 'react';
import { useHostServices } from '@atrium/sdk';
import { serverMessage } from '../catalog/api-shared.js';

/**
 * A write started from a tab or view (delete, restore, reorder, save): when it succeeds the lists are
 * read again (`changed`) and a toast says what happened; when it is refused, `message` holds the
 * server's words until the next write starts.
 */
export function useWriteAction(changed: () => Promise<unknown>) {
  const services = useHostServices();
  const [message, setMessage] = useState<string | null>(null);
  async function act(action: () => Promise<unknown>, success: string) {
    setMessage(null);
    try {
      await action();
      await changed();
      services.showToast({ message: success, kind: 'success' });
    } catch (error) {
      setMessage(serverMessage(error));
    }
  }
  return { message, setMessage, act };
}
