import { describe, expect, it } from 'vitest';
import { parseBrl, tryParseBrl, type Ontology, type TemplateComponent } from '@atrium/rating/rules';
import {
  argumentError,
  initialValues,
  inputTypeOf,
  optionsOf,
  templateUseOf,
  withArguments,
} from './template-arguments.js';

const template = parseBrl(`template minimum_value "Minimum value"
  parameter earliest: number "Earliest year" input-type number default 1981 documentation 'Older is refused'
  parameter field: field "Field"
  parameter strict: boolean "Strict"
  parameter from: date "From"
  category validation
  applies to vehicle
when
  it is true that {{field}} < {{earliest}}
then
  mark model_year invalid
end
`) as TemplateComponent;
const ontology: Ontology = {
  product: 'personal_auto',
  riskTypes: [
    { name: 'policy', fields: [{ name: 'state', type: 'string' }], items: [] },
    {
      name: 'vehicle',
      parent: 'policy',
      fields: [
        { name: 'model_year', type: 'number' },
        { name: 'vin', type: 'string' },
      ],
      items: [],
    },
  ],
};
const use = "rule r 'R' from template minimum_value\n  with field = 'model_year', strict = true\nend\n";

describe('template arguments', () => {
  it('finds the use and its template; none for a plain rule or an unknown template', () => {
    expect(templateUseOf(use, [template])?.template?.name).toBe('minimum_value');
    expect(templateUseOf(use, [])?.template).toBeNull();
    expect(
      templateUseOf('rule r\n  category validation\n  applies to vehicle\nwhen\n  always\nthen\nend\n', [template]),
    ).toBeNull();
  });

  it('starts from the use, then the defaults, and picks inputs by type', () => {
    const found = templateUseOf(use, [template])!;
    expect(initialValues(template, found.use)).toEqual({
      earliest: '1981',
      field: 'model_year',
      strict: true,
      from: '',
    });
    expect(template.parameters.map(inputTypeOf)).toEqual(['number', 'select', 'checkbox', 'date']);
    expect(optionsOf(template.parameters[1]!, template, ontology)).toEqual(['model_year', 'vin']);
  });

  it('checks values as the template expansion does', () => {
    const [earliest, field, strict, from] = template.parameters as [never, never, never, never];
    expect(argumentError(earliest, 'abc', [])).toBe('Earliest year must be a number.');
    expect(argumentError(earliest, '', [])).toBeNull();
    expect(argumentError(field, '', ['vin'])).toBe('Field is required.');
    expect(argumentError(field, 'colour', ['model_year', 'vin'])).toBe('Field must be one of model_year, vin.');
    expect(argumentError(strict, false, [])).toBeNull();
    expect(argumentError(from, '2026-13', [])).toBe('From must be a date (YYYY-MM-DD).');
    expect(argumentError(from, '2026-07-01', [])).toBeNull();
  });

  it('writes the values into the tree and prints it: exact decimals stay exact, empty values take the default', () => {
    const found = templateUseOf(use, [template])!;
    const text = withArguments(template, found.use, {
      earliest: '1990',
      field: 'vin',
      strict: false,
      from: '2026-07-01',
    });
    expect(tryParseBrl(text).component).toMatchObject({
      kind: 'use',
      name: 'r',
      values: { earliest: 1990, field: 'vin', strict: false, from: '2026-07-01' },
    });
    const exact = withArguments(template, found.use, { earliest: '0.10', field: 'vin', strict: true, from: '' });
    expect(tryParseBrl(exact).component).toMatchObject({ values: { earliest: '0.10', field: 'vin', strict: true } });
    expect(exact).not.toContain('from =');
  });
});
