import { Alert } from '@mantine/core';
import { useCarrierMetadata } from '../carrier/carrier-queries.js';

/** Carrier staff working on the live site get a constant reminder (agents never see it). */
export function LiveSiteBanner() {
  const { data: meta } = useCarrierMetadata();
  if (!meta?.live_status) return null;
  return (
    <Alert color="red" variant="filled" radius={0} role="alert" className="atrium-live-banner">
      Be careful, this is a Live site
    </Alert>
  );
}
