import { useEffect, useState } from 'react';
import type { ApiClient } from './api-client.js';
import { useHostServices, useSession } from './plugin-host.js';

/**
 * `useCan(resource, action, record?)`: may the effective role do this? For the UI's sake only (to
 * hide or disable what would be refused); the server checks every call again. The host answers from
 * its evaluation cache (`HostServices.access`): one `POST /api/access/evaluations` per tick for all
 * questions asked together, answers kept per effective role and cleared when the role changes.
 */

export interface AccessQuestion {
  /** `<module>:<thing>` (`claims:payment`) or `ui:<module>`. */
  resource: string;
  /** `read`, `create`, `ViewModule` … */
  action: string;
  /** The record acted on: conditions over `record.*` are then decided for it. */
  record?: Record<string, unknown>;
  context?: Record<string, unknown>;
}

/** The host's access client as plugins see it. */
export interface AccessEvaluator {
  /** Allowed or not; cached per effective role. Rejects when the access service does not answer. */
  evaluate(question: AccessQuestion): Promise<boolean>;
  /** Forgets every cached answer (after a policy or assignment change, on sign-out, on a role switch). */
  clear(): void;
}

export interface CanResult {
  /** false while the answer is pending, when refused and when the question failed. */
  allowed: boolean;
  /** No answer yet for this question and role. */
  pending: boolean;
  /** Why the question failed (the access service did not answer); null otherwise. */
  error: unknown;
}

export const EVALUATIONS_API_PATH = '/access/evaluations';

/**
 * An uncached evaluator over the API client, for hosts that provide no access client (the shell
 * always provides one; this keeps `useCan` working in a bare PluginHostProvider).
 */
export function apiAccessEvaluator(api: Pick<ApiClient, 'post'>): AccessEvaluator {
  return {
    async evaluate(question) {
      const body = await api.post<{ results?: { evaluation?: { allowed?: boolean } | boolean }[] }>(
        EVALUATIONS_API_PATH,
        { requests: [question] },
      );
      const evaluation = body?.results?.[0]?.evaluation;
      return typeof evaluation === 'boolean' ? evaluation : evaluation?.allowed === true;
    },
    clear() {},
  };
}

const fallbacks = new WeakMap<object, AccessEvaluator>();

/** The host's access client, or an uncached one over its API client. */
export function useAccessEvaluator(): AccessEvaluator {
  const services = useHostServices();
  if (services.access) return services.access;
  let fallback = fallbacks.get(services.api);
  if (!fallback) fallbacks.set(services.api, (fallback = apiAccessEvaluator(services.api)));
  return fallback;
}

interface Answer {
  key: string;
  allowed: boolean;
  error: unknown;
}

export function useCan(resource: string, action: string, record?: Record<string, unknown>): CanResult {
  const evaluator = useAccessEvaluator();
  const { signedIn, effectiveRole } = useSession();
  // Records are compared by value: a new object with the same fields asks nothing new.
  const recordJson = record === undefined ? '' : JSON.stringify(record);
  const key = JSON.stringify([signedIn, effectiveRole, resource, action, recordJson]);
  const [answer, setAnswer] = useState<Answer | null>(null);

  useEffect(() => {
    if (!signedIn) {
      setAnswer({ key, allowed: false, error: null });
      return;
    }
    let live = true;
    const question: AccessQuestion = { resource, action };
    if (recordJson) question.record = JSON.parse(recordJson) as Record<string, unknown>;
    evaluator.evaluate(question).then(
      (allowed) => {
        if (live) setAnswer({ key, allowed, error: null });
      },
      (error: unknown) => {
        if (live) setAnswer({ key, allowed: false, error });
      },
    );
    return () => {
      live = false;
    };
    // `key` covers resource, action, the record's value, the role and the session.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [evaluator, key]);

  const current = answer?.key === key ? answer : null;
  return { allowed: current?.allowed ?? false, pending: current === null, error: current?.error ?? null };
}
