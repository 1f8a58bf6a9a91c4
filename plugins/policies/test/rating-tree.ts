type Json = Record<string, unknown>;

/** A quote's risk tree as bind hands it to issuance (quote's loadTree): the demo's single driver. */
export function singleDriverTree(answers: Record<string, unknown> = {}) {
  const node = (id: number, type: string, fieldAnswers: Record<string, unknown>, items: Json[], children: Json[]) => ({
    id,
    risk_state: { type: { name: type }, field_answers: fieldAnswers, items },
    risk_quotes: children,
    meta: { locked: false },
  });
  const coverage = (name: string, limit: string | null, deductible: string | null) => ({
    id: name.length,
    name,
    limit,
    deductible,
    limits: {},
  });
  return node(
    1,
    'policy',
    { paid_in_full: true },
    [],
    [
      node(
        2,
        'vehicle',
        { model_year: 2025, symbol: 8, usage: 'commute', garaging_zip: '77002', ...answers },
        [
          coverage('bodily_injury', '100000', null),
          coverage('property_damage', '50000', null),
          coverage('collision', null, '1000'),
          coverage('comprehensive', null, '500'),
          coverage('roadside', null, null),
        ],
        [],
      ),
      node(3, 'driver', { first_name: 'Sam', last_name: 'Nguyen', age: 30, at_fault_accidents: 1 }, [], []),
    ],
  );
}
