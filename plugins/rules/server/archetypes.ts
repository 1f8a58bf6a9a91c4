import type { ComponentType } from './tables.js';

/**
 * Project archetypes (docs/rules.md, "Project archetypes"): starting points for a new rules project.
 * Each gives the project's package its folders and starter templates; the templates name no field
 * of any product (fields and risk types are their parameters), so they validate against every
 * product.
 */
export interface Archetype {
  id: number;
  name: string;
  label: string;
  description: string;
  /** The previous portal's project type it stands for. */
  projectType: string;
  components: { name: string; label: string; folder: string; type: ComponentType; body: string }[];
}

const hideField = `template hide_field "Hide a field"
  parameter on: risk-type "Risk type" documentation 'The risk type whose field is hidden'
  parameter target: field "Field" documentation 'The field to hide'
  category ui-control
  applies to {{on}}
when
  always
then
  hide {{target}}
end
`;

const mandatoryField = `template mandatory_field "Make a field mandatory"
  parameter on: risk-type "Risk type" documentation 'The risk type whose field must be answered'
  parameter target: field "Field" documentation 'The field that must be answered'
  category validation
  applies to {{on}}
when
  always
then
  make {{target}} mandatory
end
`;

const referAbove = `template refer_above "Refer when a number is above a limit"
  parameter on: risk-type "Risk type" documentation 'The risk type the rule runs on'
  parameter amount: field "Field" documentation 'A number field'
  parameter limit: number "Limit" input-type number default 0 documentation 'Above this the quote is referred'
  category underwriting
  applies to {{on}}
when
  it is true that {{amount}} > {{limit}}
then
  raise issue 'REFER-LIMIT' severity refer blocking bind message 'Above the limit: an underwriter reviews this quote.'
end
`;

export const ARCHETYPES: Archetype[] = [
  {
    id: 1,
    name: 'empty',
    label: 'Empty project',
    description: 'One package and nothing in it.',
    projectType: 'Quoting',
    components: [],
  },
  {
    id: 2,
    name: 'ui_controls',
    label: 'UI controls',
    description: 'Folders for UI-control and validation rules, with templates to hide a field and to require one.',
    projectType: 'UI Controls',
    components: [
      { name: 'hide_field', label: 'Hide a field', folder: 'templates', type: 'template', body: hideField },
      {
        name: 'mandatory_field',
        label: 'Make a field mandatory',
        folder: 'templates',
        type: 'template',
        body: mandatoryField,
      },
    ],
  },
  {
    id: 3,
    name: 'quoting',
    label: 'Quoting: UI controls, validation and underwriting',
    description: 'The UI-controls templates and a template that refers quotes above a limit.',
    projectType: 'Quoting',
    components: [
      { name: 'hide_field', label: 'Hide a field', folder: 'templates', type: 'template', body: hideField },
      {
        name: 'mandatory_field',
        label: 'Make a field mandatory',
        folder: 'templates',
        type: 'template',
        body: mandatoryField,
      },
      {
        name: 'refer_above',
        label: 'Refer when a number is above a limit',
        folder: 'templates',
        type: 'template',
        body: referAbove,
      },
    ],
  },
];

export const archetypeView = (a: Archetype) => ({
  id: a.id,
  name: a.name,
  label: a.label,
  description: a.description,
  project_type: a.projectType,
  components: a.components.map((c) => ({
    name: c.name,
    label: c.label,
    folder: c.folder,
    component_type: c.type,
  })),
});
