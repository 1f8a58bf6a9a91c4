import {
  CONNECT,
  parsePluginMessage,
  PROTOCOL_VERSION,
  type HostMessage,
  type PluginMessage,
} from './bridge-protocol.js';

/**
 * The host's end of one plugin's bridge: the handshake on a fresh MessageChannel, the heartbeat,
 * the flood limit, and dispatch of each valid message to the slot. The host never listens on its
 * own window, so a plugin can reach nothing but its own port, and other plugins' ports never cross.
 */
export const HANDSHAKE_MS = 8000;
export const PING_EVERY_MS = 1000;
/** A plugin that has not answered a ping for this long is stuck (a busy loop) and is stopped. */
export const STUCK_MS = 4000;
/** More messages than this within one second is a flood: the plugin is stopped. */
export const FLOOD_PER_SECOND = 60;

export type Handler = (message: Exclude<PluginMessage, { type: 'hello' | 'pong' }>) => void;

export interface BridgeOptions {
  frame: HTMLIFrameElement;
  /** What `welcome` carries. */
  welcome: () => { slot: string; context: unknown; configuration: unknown };
  onMessage: Handler;
  onReady: () => void;
  /** Called once, with the reason shown in the slot; the caller removes the iframe. */
  onFail: (reason: string) => void;
}

export interface Bridge {
  /** Called on the iframe's load event: offers the port. A second load (the plugin navigated) fails it. */
  loaded(): void;
  send(message: HostMessage): void;
  dispose(): void;
}

export function createBridge({ frame, welcome, onMessage, onReady, onFail }: BridgeOptions): Bridge {
  let port: MessagePort | null = null;
  let loads = 0;
  let ready = false;
  let done = false;
  let lastPong = Date.now();
  let ping = 0;
  let windowStart = Date.now();
  let windowCount = 0;
  const timers: ReturnType<typeof setTimeout>[] = [];

  const fail = (reason: string) => {
    if (done) return;
    done = true;
    dispose();
    onFail(reason);
  };
  const dispose = () => {
    timers.forEach((t) => clearTimeout(t));
    clearInterval(heartbeat);
    port?.close();
    port = null;
  };
  const send = (message: HostMessage) => port?.postMessage(message);

  // Counted from mount, not from load: a plugin looping in its first script never fires load.
  timers.push(setTimeout(() => ready || fail('it did not start in time.'), HANDSHAKE_MS));
  const heartbeat = setInterval(() => {
    if (!ready) return;
    if (Date.now() - lastPong > STUCK_MS) return fail('it stopped answering.');
    send({ type: 'ping', n: ++ping });
  }, PING_EVERY_MS);

  const receive = (event: MessageEvent) => {
    if (done) return;
    const now = Date.now();
    if (now - windowStart > 1000) {
      windowStart = now;
      windowCount = 0;
    }
    if (++windowCount > FLOOD_PER_SECOND) return fail('it sent too many messages.');
    const message = parsePluginMessage(event.data);
    if (!message) return; // dropped: unknown, malformed or oversized
    if (message.type === 'hello') {
      if (ready) return;
      if (message.version !== PROTOCOL_VERSION)
        return fail(`it speaks bridge version ${message.version}, not ${PROTOCOL_VERSION}.`);
      ready = true;
      lastPong = Date.now();
      send({ type: 'welcome', version: PROTOCOL_VERSION, ...welcome() });
      onReady();
      return;
    }
    if (message.type === 'pong') {
      if (message.n === ping) lastPong = Date.now();
      return;
    }
    if (ready) onMessage(message);
  };

  return {
    loaded() {
      if (done) return;
      if (++loads > 1) return fail('it left its page.');
      const channel = new MessageChannel();
      port = channel.port1;
      port.onmessage = receive;
      // '*' because the sandboxed document's origin is opaque; the port goes to whatever loaded the
      // Atrium-served file in this iframe, and only ever carries what this plugin may see.
      frame.contentWindow?.postMessage({ atrium: CONNECT, version: PROTOCOL_VERSION }, '*', [channel.port2]);
    },
    send,
    dispose() {
      done = true;
      dispose();
    },
  };
}
