import { PluginHostProvider } from '@atrium/sdk';
import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { HostRuntime } from './host-runtime.js';

const HostRuntimeContext = createContext<HostRuntime | null>(null);

/** Also provides the SDK's plugin host, so plugin components can use useHostServices, useSession … */
export function HostRuntimeProvider({ runtime, children }: { runtime: HostRuntime; children: ReactNode }) {
  return (
    <HostRuntimeContext.Provider value={runtime}>
      <PluginHostProvider host={runtime.pluginHost}>{children}</PluginHostProvider>
    </HostRuntimeContext.Provider>
  );
}

export function useHostRuntime(): HostRuntime {
  const runtime = useContext(HostRuntimeContext);
  if (!runtime) throw new Error('useHostRuntime must be used inside HostRuntimeProvider.');
  return runtime;
}

/** Reads one of the runtime's zustand stores. */
export function useRuntimeStore<S, T>(pick: (runtime: HostRuntime) => StoreApi<S>, selector: (state: S) => T): T {
  return useStore(pick(useHostRuntime()), selector);
}

/** The `when` context as a React value; re-renders when any key changes. */
export function useWhenContext() {
  const { context } = useHostRuntime();
  return useSyncExternalStore(context.subscribe, context.snapshot, context.snapshot);
}
