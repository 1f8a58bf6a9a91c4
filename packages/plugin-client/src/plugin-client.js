/*
 * @atrium/plugin-client: the plugin's end of the Atrium bridge (protocol version 1,
 * docs/third-party-plugins.md). A classic script, because a sandboxed plugin runs on an opaque origin
 * where module scripts would need CORS: load it with
 *   <script src="/api/integrations/plugins/sdk/plugin-client.js"></script>
 * (Atrium serves it) or bundle it; it defines `AtriumPlugin` on the global object.
 * It answers the host's heartbeat for you; a plugin that blocks its thread is stopped by the host.
 */
(function (global) {
  'use strict';
  var VERSION = 1;

  function connect(options) {
    options = options || {};
    return new Promise(function (resolve, reject) {
      var timer = setTimeout(function () {
        reject(new Error('Atrium did not connect: is this page loaded in an Atrium slot?'));
      }, options.timeoutMs || 10000);

      global.addEventListener('message', function onConnect(event) {
        if (!event.data || event.data.atrium !== 'atrium:connect' || !event.ports || !event.ports[0]) return;
        global.removeEventListener('message', onConnect);
        var port = event.ports[0];
        var calls = {};
        var nextCall = 1;
        var plugin = null;

        function call(message) {
          var id = 'c' + nextCall++;
          message.call = id;
          return new Promise(function (ok, fail) {
            calls[id] = { ok: ok, fail: fail };
            port.postMessage(message);
          });
        }

        port.onmessage = function (m) {
          var msg = m.data || {};
          if (msg.type === 'ping') return port.postMessage({ type: 'pong', n: msg.n });
          if (msg.type === 'welcome') {
            clearTimeout(timer);
            plugin = {
              slot: msg.slot,
              context: msg.context,
              configuration: msg.configuration,
              /** Buttons the host renders in the slot: [{ id, text }], at most five. */
              setButtons: function (buttons) {
                port.postMessage({ type: 'buttons', buttons: buttons });
              },
              /** An RFC 6902 JSON Patch on { field_answers }; resolves once saved, rejects with the reason. */
              updateRisk: function (patch) {
                return call({ type: 'update-risk', patch: patch });
              },
              /**
               * New risks under the slot's risk: [{ riskType, patch }], each patch on an empty risk of
               * that child type. Resolves to { riskIds } once all are saved.
               */
              createAndUpdateRisk: function (risks) {
                return call({
                  type: 'create-and-update-risk',
                  risks: (risks || []).map(function (r) {
                    return { risk_type: r.riskType, patch: r.patch };
                  }),
                });
              },
              /** Navigates the host by a route's name, e.g. navigate('quote:page', { quoteNumber }). */
              navigate: function (route, params, query) {
                return call({ type: 'navigate', route: route, params: params, query: query });
              },
              /**
               * An API request the host performs as the signed-in user (path relative to /api).
               * Resolves to { status, body } for any answer; rejects when refused.
               */
              request: function (method, path, options) {
                options = options || {};
                return call({ type: 'request', method: method, path: path, query: options.query, body: options.body });
              },
              toast: function (message, kind) {
                port.postMessage({ type: 'toast', message: String(message), kind: kind || 'info' });
              },
            };
            if (options.buttons) plugin.setButtons(options.buttons);
            return resolve(plugin);
          }
          if (!plugin) return;
          if (msg.type === 'context') {
            plugin.context = msg.context;
            if (options.onContext) options.onContext(msg.context, plugin);
          } else if (msg.type === 'button-clicked') {
            if (options.onButton) options.onButton(msg.id, plugin);
          } else if (msg.type === 'command') {
            // The palette: one of the record's event commands, or a result with an event, was chosen.
            if (options.onCommand) options.onCommand(msg.id, plugin);
          } else if (msg.type === 'search') {
            // The palette asks for results; the host waits 1.5 s at most and keeps five.
            var reply = function (items) {
              port.postMessage({ type: 'search-results', call: msg.call, items: Array.isArray(items) ? items : [] });
            };
            if (!options.onSearch) reply([]);
            else
              Promise.resolve()
                .then(function () {
                  return options.onSearch(msg.query, plugin);
                })
                .then(reply, function () {
                  reply([]);
                });
          } else if (msg.type === 'result' && calls[msg.call]) {
            var pending = calls[msg.call];
            delete calls[msg.call];
            if (msg.ok) pending.ok(msg.value);
            else pending.fail(new Error(msg.error));
          } else if (msg.type === 'refused') {
            if (options.onRefused) options.onRefused(msg.error, msg.request, plugin);
            else if (global.console) global.console.warn(msg.error);
          }
        };
        port.postMessage({ type: 'hello', version: VERSION });
      });
    });
  }

  global.AtriumPlugin = { version: VERSION, connect: connect };
})(typeof window !== 'undefined' ? window : globalThis);
