import { describe, expect, it } from 'vitest';
import { definePlugin } from './define-plugin.js';
import { PluginValidationError } from './manifest-validation.js';
import { myWorkWidgets } from './my-work.js';

const loader = async () => ({ default: () => null });

describe('My work widgets', () => {
  it('are listed across plugins by order, with their plugin and module', () => {
    const claims = definePlugin({
      id: 'claims',
      title: 'Claims',
      moduleKey: 'claims',
      myWork: [
        { id: 'claims.approvals', title: 'Payments awaiting approval', order: 20, loader },
        { id: 'claims.mine', title: 'My open claims', order: 10, loader },
      ],
    });
    const quotes = definePlugin({
      id: 'quotes',
      title: 'Quotes',
      myWork: [{ id: 'quotes.open', title: 'Open quotes', order: 15, when: 'role == "Agent"', loader }],
    });
    const widgets = myWorkWidgets([claims, quotes, definePlugin({ id: 'bare', title: 'Bare' })]);
    expect(widgets.map((w) => [w.id, w.pluginId, w.moduleKey])).toEqual([
      ['claims.mine', 'claims', 'claims'],
      ['quotes.open', 'quotes', undefined],
      ['claims.approvals', 'claims', 'claims'],
    ]);
  });

  it('are refused at definition when duplicated, untitled, or with a broken when or access question', () => {
    let error: unknown;
    try {
      definePlugin({
        id: 'claims',
        title: 'Claims',
        myWork: [
          { id: 'claims.mine', title: 'Mine', loader },
          { id: 'claims.mine', title: '', when: 'role ==', access: { resource: 'claims:payment', action: '' }, loader },
        ],
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PluginValidationError);
    const problems = (error as PluginValidationError).problems;
    expect(problems).toContain("duplicate My work widget 'claims.mine'");
    expect(problems).toContain("My work widget 'claims.mine': title is required");
    expect(problems).toContain("My work widget 'claims.mine': access needs a resource and an action");
    // The third: the `when` clause that does not parse.
    expect(
      problems.filter((p) => p.startsWith("My work widget 'claims.mine': ") && !/title|access/.test(p)),
    ).toHaveLength(1);
  });
});
