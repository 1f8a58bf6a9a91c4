import { useLocation, useSearchParams } from 'react-router-dom';
import { ResetWithCodeForm } from '../components/reset-with-code-form.js';
import { FORCE_RESET_TEXT } from '../sign-in-messages.js';
import type { ResetWithCodeState } from '../sign-in/use-sign-in-flow.js';

/** `/login/force-reset-password`: an administrator required a new password; the code is on its way. */
export default function ForceResetPasswordPage() {
  const state = (useLocation().state ?? {}) as Partial<ResetWithCodeState>;
  const [params] = useSearchParams();
  return (
    <ResetWithCodeForm
      intro={FORCE_RESET_TEXT}
      username={state.username ?? params.get('username')}
      deliveryDestination={state.deliveryDestination ?? null}
      redirectPath={state.redirectPath ?? params.get('redirectPath')}
    />
  );
}
