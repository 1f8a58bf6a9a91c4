// @vitest-environment jsdom
import { definePlugin } from '@atrium/sdk';
import { configure, screen, waitFor, within } from '@testing-library/react';
// Two shared, loaded cores: lazy widgets and access answers may take seconds to arrive.
configure({ asyncUtilTimeout: 20000 });
import { describe, expect, it } from 'vitest';
import { renderHost, sessionFor } from '../testing/render-host.js';

const widget = (text: string) => async () => ({ default: () => <p>{text}</p> });

const claimsLike = definePlugin({
  id: 'claims-like',
  title: 'Claims',
  moduleKey: 'claims',
  myWork: [
    {
      id: 'claims-like.approvals',
      title: 'Payments awaiting approval',
      order: 20,
      loader: widget('two payments'),
      access: { resource: 'claims:transaction', action: 'approve' },
    },
    {
      id: 'claims-like.mine',
      title: 'My open claims',
      order: 10,
      loader: widget('three claims'),
      when: 'role != "Agent"',
    },
  ],
});
const rulesLike = definePlugin({
  id: 'rules-like',
  title: 'Rules',
  moduleKey: 'rules',
  myWork: [{ id: 'rules-like.drafts', title: 'Rule drafts', loader: widget('one draft') }],
});

function render(role: string, allowed: (resource: string) => boolean) {
  return renderHost({
    path: '/',
    manifests: [claimsLike, rulesLike],
    session: sessionFor(),
    effectiveRole: role,
    viewable: allowed,
  });
}

describe('My work on All Modules', () => {
  it('shows the widgets of viewable modules, in order, whose access question is allowed', async () => {
    render('Adjuster', (resource) => resource !== 'rules');
    const section = await screen.findByRole('region', { name: 'My work' });
    await within(section).findByText('three claims');
    await within(section).findByText('two payments');
    expect(
      within(section)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['My open claims', 'Payments awaiting approval']);
    // The rules module is refused: its widget is not there.
    expect(within(section).queryByText('Rule drafts')).toBeNull();
    // Above the module tiles, under the page's one h1.
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('All Modules');
  });

  it('leaves out a widget whose access question is refused or whose when does not hold', async () => {
    const notes = definePlugin({
      id: 'notes-like',
      title: 'Notes',
      myWork: [{ id: 'notes-like.mine', title: 'My notes', loader: widget('four notes') }],
    });
    const host = renderHost({
      path: '/',
      manifests: [claimsLike, rulesLike, notes],
      session: sessionFor(),
      effectiveRole: 'Agent',
      viewable: (resource) => resource !== 'claims:transaction' && resource !== 'rules',
    });
    const section = await screen.findByRole('region', { name: 'My work' });
    await within(section).findByText('four notes');
    // The approve question was asked and refused.
    await waitFor(() =>
      expect(host.fetch.mock.calls.some(([, init]) => String(init?.body).includes('claims:transaction'))).toBe(true),
    );
    await waitFor(() =>
      expect(host.runtime.access.evaluate({ resource: 'claims:transaction', action: 'approve' })).resolves.toBe(false),
    );
    expect(within(section).queryByText('Payments awaiting approval')).toBeNull();
    // `role != "Agent"` does not hold for an agent.
    expect(within(section).queryByText('My open claims')).toBeNull();
    expect(
      within(section)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['My notes']);
  });

  it('shows no My work heading when every widget left is refused', async () => {
    const host = renderHost({
      path: '/',
      manifests: [claimsLike, rulesLike],
      session: sessionFor(),
      effectiveRole: 'Agent',
      viewable: (resource) => resource !== 'claims:transaction' && resource !== 'rules',
    });
    await screen.findByRole('heading', { level: 1, name: 'All Modules' });
    await waitFor(() =>
      expect(host.fetch.mock.calls.some(([, init]) => String(init?.body).includes('claims:transaction'))).toBe(true),
    );
    await waitFor(() =>
      expect(host.runtime.access.evaluate({ resource: 'claims:transaction', action: 'approve' })).resolves.toBe(false),
    );
    expect(screen.queryByRole('region', { name: 'My work' })).toBeNull();
    expect(screen.queryByText('My work')).toBeNull();
  });

  it('shows the module tiles together with My work, not before it (no layout shift when My work appears)', async () => {
    render('Adjuster', () => true);
    // The tiles' place: with no navigation entries in these manifests, the "no modules" line.
    await screen.findByText('No modules are available to you.');
    // At the moment the tiles first show, My work is already above them, with the widget whose
    // access question had to be answered first.
    const section = screen.getByRole('region', { name: 'My work' });
    expect(within(section).getByRole('heading', { name: 'Payments awaiting approval' })).toBeTruthy();
  });
});
