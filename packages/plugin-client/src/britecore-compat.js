/*
 * Compatibility with plugins written for the previous portal (issue 22 item 4): Atrium rewrites
 * their `…/britecore-ui-plugins.js` script tag to this file (served after plugin-client.js), which
 * defines the previous library's `BriteCorePlugin` on top of AtriumPlugin:
 *   var plugin = new BriteCorePlugin('Name');
 *   plugin.initialize({ 'button-row': { buttons: [{ text, callback, visible, enabled }] } });
 *   // in a callback(context), `this` is the plugin; context.riskState.field_answers is the risk
 *   this.emit('Name-update-risk', jsonPatch);
 */
(function (global) {
  'use strict';

  function BriteCorePlugin(name) {
    this.name = name || '';
    this.connection = null;
    this.buttons = [];
  }

  BriteCorePlugin.prototype.legacyContext = function () {
    var c = this.connection;
    return {
      riskState: { field_answers: c.context.risk.field_answers, type: c.context.riskType },
      riskId: c.context.riskId,
      riskTypes: (c.context.childRiskTypes || []).map((t) => ({ name: t.name, label: t.label })),
      rootRiskQuote: { id: c.context.riskId, risk_state: { field_answers: c.context.risk.field_answers } },
      quoteNumber: c.context.quoteNumber,
      configuration: c.configuration,
    };
  };

  BriteCorePlugin.prototype.visibleButtons = function () {
    return this.buttons
      .filter(
        (b) => typeof b.def.visible !== 'function' || b.def.visible.call(this, this.connection && this.legacyContext()),
      )
      .map((b) => ({ id: b.id, text: String(b.def.text).slice(0, 40) }));
  };

  BriteCorePlugin.prototype.initialize = function (slots) {
    const row = (slots && slots['button-row']) || { buttons: [] };
    this.buttons = (row.buttons || []).slice(0, 5).map((def, i) => ({ id: 'b' + i, def: def }));
    return global.AtriumPlugin.connect({
      onButton: (id) => {
        const button = this.buttons.find((b) => b.id === id);
        if (!button || typeof button.def.callback !== 'function') return;
        if (typeof button.def.enabled === 'function' && !button.def.enabled.call(this, this.legacyContext())) return;
        button.def.callback.call(this, this.legacyContext());
      },
      onContext: (_context, connection) => {
        this.connection = connection;
        connection.setButtons(this.visibleButtons());
      },
    }).then((connection) => {
      this.connection = connection;
      connection.setButtons(this.visibleButtons());
      return this;
    });
  };

  /**
   * The previous library's events: `<name>-update-risk` (or `update-risk`) with a JSON Patch, and
   * `<name>-create-and-update-risk` with [{ parentRiskQuote, riskType, jsonPatch }] (the parent must
   * be the slot's risk; riskType is the type object or its name).
   */
  BriteCorePlugin.prototype.emit = function (event, payload) {
    if (!this.connection) return Promise.reject(new Error('The plugin is not initialized.'));
    if (/(^|-)create-and-update-risk$/.test(String(event))) {
      const riskId = this.connection.context && this.connection.context.riskId;
      const entries = Array.isArray(payload) ? payload : [payload];
      const foreign = entries.some(
        (e) => e && e.parentRiskQuote && e.parentRiskQuote.id !== undefined && e.parentRiskQuote.id !== riskId,
      );
      if (foreign) return Promise.reject(new Error('New risks go under the risk this button row belongs to.'));
      return this.connection.createAndUpdateRisk(
        entries.map((e) => ({
          riskType: e && e.riskType && typeof e.riskType === 'object' ? e.riskType.name : e && e.riskType,
          patch: e && e.jsonPatch,
        })),
      );
    }
    if (/(^|-)update-risk$/.test(String(event))) return this.connection.updateRisk(payload);
    return Promise.reject(new Error('Atrium does not support the event ' + String(event).slice(0, 60) + '.'));
  };

  global.BriteCorePlugin = BriteCorePlugin;
})(typeof window !== 'undefined' ? window : globalThis);
