import { Notification, Stack } from '@mantine/core';
import { useHostRuntime, useRuntimeStore } from '../host-runtime-context.js';

const COLORS = { success: 'green', error: 'red', info: 'blue', warning: 'yellow' } as const;

export function ToastStack() {
  const runtime = useHostRuntime();
  const toasts = useRuntimeStore(
    (r) => r.toasts,
    (s) => s.toasts,
  );
  if (toasts.length === 0) return null;
  return (
    <Stack gap="xs" className="atrium-toasts" aria-live="polite">
      {toasts.map((toast) => (
        <Notification
          key={toast.id}
          color={COLORS[toast.kind]}
          title={toast.title}
          role={toast.kind === 'error' ? 'alert' : 'status'}
          onClose={() => runtime.toasts.getState().dismiss(toast.id)}
        >
          {toast.message}
        </Notification>
      ))}
    </Stack>
  );
}
