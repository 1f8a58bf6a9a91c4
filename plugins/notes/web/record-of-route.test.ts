import { describe, expect, it } from 'vitest';
import { recordOfParams } from './record-of-route.js';

describe('recordOfParams', () => {
  it('names the record a page shows by its route parameter', () => {
    expect(recordOfParams({ claimNumber: 'CLM-1001', risk_type_group_name: 'vehicles' })).toEqual({
      type: 'claim',
      id: 'CLM-1001',
    });
    expect(recordOfParams({ contactId: ' CON-7 ' })).toEqual({ type: 'contact', id: 'CON-7' });
    expect(recordOfParams({ fnolNumber: 'F-1' })).toBeNull();
    expect(recordOfParams({ claimNumber: '  ' })).toBeNull();
  });
});
