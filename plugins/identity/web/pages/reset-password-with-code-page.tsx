import { useLocation, useSearchParams } from 'react-router-dom';
import { ResetWithCodeForm } from '../components/reset-with-code-form.js';
import type { ResetWithCodeState } from '../sign-in/use-sign-in-flow.js';

/**
 * `/login/reset-password-with-code` (params username, redirectPath, deliveryDestination (masked),
 * deliveryMedium EMAIL, resetRequiredReason): after forgot-password, or a reset required right
 * after a legacy migration.
 */
export default function ResetPasswordWithCodePage() {
  const state = (useLocation().state ?? {}) as Partial<ResetWithCodeState>;
  const [params] = useSearchParams();
  return (
    <ResetWithCodeForm
      intro={state.resetRequiredReason ?? null}
      username={state.username ?? params.get('username')}
      deliveryDestination={state.deliveryDestination ?? null}
      redirectPath={state.redirectPath ?? params.get('redirectPath')}
    />
  );
}
