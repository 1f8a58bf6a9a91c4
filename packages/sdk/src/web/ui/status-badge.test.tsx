// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInTestHost } from '../../testing/render-in-test-host.js';
import { defineStatusLabels, humanizeEnum, StatusBadge, statusLabel } from './status-badge.js';

const labels = defineStatusLabels({
  pending_approval: { label: 'Pending approval', tone: 'warning' },
  posted: { label: 'Posted', tone: 'success' },
});

describe('status labels', () => {
  it('turns stored values into words when a map does not know them', () => {
    expect(humanizeEnum('pending_approval')).toBe('Pending approval');
    expect(humanizeEnum('payment.post')).toBe('Payment post');
    expect(humanizeEnum('FORCE_CHANGE_PASSWORD')).toBe('Force change password');
    expect(humanizeEnum('newBusiness')).toBe('New business');
  });

  it('prefers the module’s label', () => {
    expect(statusLabel(labels, 'pending_approval')).toBe('Pending approval');
    expect(statusLabel(labels, 'payment_void')).toBe('Payment void');
    expect(statusLabel(labels, null)).toBe('–');
  });

  it('renders the label, never the value', async () => {
    await renderInTestHost(
      <>
        <StatusBadge labels={labels} value="pending_approval" />
        <StatusBadge labels={labels} value="rejected_by_rule" />
      </>,
    );
    expect(await screen.findByText('Pending approval')).toBeTruthy();
    expect(screen.getByText('Rejected by rule')).toBeTruthy();
    expect(screen.queryByText(/pending_approval|rejected_by_rule/)).toBeNull();
  });
});
