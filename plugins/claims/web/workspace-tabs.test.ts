import { describe, expect, it } from 'vitest';
import { pluralize, workspaceTabs } from './workspace-tabs.js';

describe('claim workspace tabs', () => {
  it('always has the five base tabs, Injuries only when allowed, then one tab per risk type group in order', () => {
    expect(workspaceTabs('CLM-7', { injuries: false, groups: [] }).map((t) => t.label)).toEqual([
      'Details',
      'Exposures',
      'Accounting',
      'Parties',
      'Attachments',
    ]);
    const tabs = workspaceTabs('CLM-7', {
      injuries: true,
      groups: [
        { id: '2', name: 'property', label: 'Property', order: 2 },
        { id: '1', name: 'vehicle', label: 'Vehicle', order: 1 },
      ],
    });
    expect(tabs.map((t) => t.label).slice(5)).toEqual(['Injuries', 'Vehicles', 'Properties']);
    expect(tabs.at(-1)).toMatchObject({ routeName: 'claims:risks:types', to: '/claims/CLM-7/risks/property' });
    expect(tabs[0]).toMatchObject({ routeName: 'claims:loss-detail', to: '/claims/CLM-7/details' });
  });

  it('pluralizes group labels', () => {
    expect(['Vehicle', 'Property', 'Business', 'Watch', 'Day'].map(pluralize)).toEqual([
      'Vehicles',
      'Properties',
      'Businesses',
      'Watches',
      'Days',
    ]);
    // A label already in the plural stays as it is (the Vehicles tab said "Vehicleses").
    expect(['Vehicles', 'Dwellings', 'Buses'].map(pluralize)).toEqual(['Vehicles', 'Dwellings', 'Buses']);
  });
});
