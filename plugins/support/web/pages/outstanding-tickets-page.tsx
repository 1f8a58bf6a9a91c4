import { Button, SegmentedControl, Stack } from '@mantine/core';
import { useState } from 'react';
import { PageHeader, useHostServices } from '@atrium/sdk';
import { TicketsTable } from '../components/tickets-table.js';
import type { TicketStatusFilter } from '../support-api.js';

/** The support tickets the user submitted that are still open (user menu → Outstanding tickets). */
export default function OutstandingTicketsPage() {
  const { openHelp } = useHostServices();
  const [status, setStatus] = useState<TicketStatusFilter>('open');
  return (
    <Stack>
      <PageHeader
        title="Outstanding tickets"
        description="The support tickets you submitted. Close one when the problem is solved."
        actions={<Button onClick={() => openHelp()}>Submit a Support Ticket</Button>}
      />
      <SegmentedControl
        aria-label="Which tickets"
        value={status}
        onChange={(value) => setStatus(value as TicketStatusFilter)}
        data={[
          { value: 'open', label: 'Outstanding' },
          { value: 'closed', label: 'Closed' },
          { value: 'all', label: 'All' },
        ]}
        maw={360}
      />
      <TicketsTable scope="mine" status={status} />
    </Stack>
  );
}
