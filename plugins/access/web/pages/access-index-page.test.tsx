// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { preloadTestHost, renderInTestHost, type TestApiRequest } from '@atrium/sdk/testing';
import AccessIndexPage from './access-index-page.js';

const answering = (allowed: (resource: string, action: string) => boolean) => ({
  'POST /access/evaluations': ({ body }: TestApiRequest) =>
    new Response(
      JSON.stringify({
        results: (body as { requests: { resource: string; action: string }[] }).requests.map((r) => ({
          evaluation: { allowed: allowed(r.resource, r.action) },
        })),
      }),
      { headers: { 'content-type': 'application/json' } },
    ),
});

describe('access overview', () => {
  beforeAll(preloadTestHost);

  it('links to the sections the role may open, and only those', async () => {
    await renderInTestHost(<AccessIndexPage />, {
      apis: answering((resource) => resource !== 'access:transfer' && resource !== 'access:directory'),
    });
    const sections = await screen.findByRole('list', { name: 'Access sections' });
    expect(
      within(sections)
        .getAllByRole('link')
        .map((l) => [l.textContent, l.getAttribute('href')]),
    ).toEqual([
      ['Access policies', '/access/policies'],
      ['Roles', '/access/roles'],
      ['Assignments', '/access/assignments'],
    ]);
  });

  it('says so when the role may open none of them', async () => {
    await renderInTestHost(<AccessIndexPage />, { apis: answering(() => false) });
    await screen.findByText('Your role may not open any part of Access.');
    expect(screen.queryByRole('list', { name: 'Access sections' })).toBeNull();
  });
});
