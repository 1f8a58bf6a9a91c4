import { Alert } from '@mantine/core';
import { useCarrierMetadata } from '../carrier/carrier-queries.js';

/** Carrier staff working on the live site get a constant reminder (agents never see it). */
export function LiveSiteBanner() {
  const { data: meta } = useCarrierMetadata();
  if (!meta?.live_status) return null;
  return (
    <Alert color="red" variant="filled" radius={0} role="alert" className="atrium-live-banner">
      <span>Be careful, this is a Live site</span>
      {/* The administrator's description of the live status (Settings), e.g. which carrier's production. */}
      {meta.live_status_description ? <span> — {meta.live_status_description}</span> : null}
    </Alert>
  );
}
