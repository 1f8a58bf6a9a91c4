// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInTestHost } from '../../testing/render-in-test-host.js';
import { MyWorkAside, MyWorkDetail, MyWorkList } from './my-work-list.js';

interface Page {
  count: number;
  rows: { id: number; name: string }[];
}
const settled = (data: Page) => ({ data, error: null, isPending: false });

function Widget({ data }: { data: Page }) {
  return (
    <MyWorkList
      query={settled(data)}
      rows={(page) => page.rows}
      rowKey={(row) => row.id}
      empty={<p>Nothing waiting</p>}
      footer={(page, shown) => (page.count > shown.length ? <p>{page.count - shown.length} more</p> : null)}
    >
      {(row) => (
        <>
          <MyWorkDetail>{row.name}</MyWorkDetail>
          <MyWorkAside mono>#{row.id}</MyWorkAside>
        </>
      )}
    </MyWorkList>
  );
}

describe('My work list', () => {
  it('lists one row per record and says how many more there are', async () => {
    await renderInTestHost(
      <Widget
        data={{
          count: 7,
          rows: [
            { id: 1, name: 'Roof leak' },
            { id: 2, name: 'Hail' },
          ],
        }}
      />,
    );
    const items = await screen.findAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(['Roof leak#1', 'Hail#2']);
    expect(screen.getByText('5 more')).toBeTruthy();
  });

  it('shows the empty state and no list when there is nothing', async () => {
    await renderInTestHost(<Widget data={{ count: 0, rows: [] }} />);
    expect(await screen.findByText('Nothing waiting')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });
});
