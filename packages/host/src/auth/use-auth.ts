import { useStore } from 'zustand';
import { authStore, type AuthState } from './auth-store.js';

export function useAuth<T>(selector: (state: AuthState) => T): T {
  return useStore(authStore, selector);
}
