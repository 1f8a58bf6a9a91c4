import type { AnyRouteRef, HostServices } from '@atrium/sdk';
import type { SearchResult } from './bridge-protocol.js';
import { runHostAction } from './host-actions.js';
import { capabilityFor, refusal } from './plugin-capabilities.js';
import { createBridge, type Bridge } from './plugin-bridge.js';

/**
 * A plugin's palette frame: the plugin's page in a hidden `sandbox="allow-scripts"` iframe of its
 * own, started the first time the palette needs the plugin (a search, or an event command) and
 * removed after a minute without use. It speaks the same bridge as a slot (handshake, heartbeat,
 * flood limit, capability checks) with the slot `atrium:palette` and no context. A plugin that
 * fails here (no hello in time, stuck, flooding) is left out of the palette for five minutes.
 */
export const PALETTE_SLOT = 'atrium:palette';
export const IDLE_MS = 60_000;
export const FAILED_FOR_MS = 5 * 60_000;

export interface PalettePlugin {
  id: string;
  name: string;
  src: string;
  configuration: Record<string, unknown>;
  capabilities: string[];
}

export interface PaletteDeps {
  services: HostServices;
  routeByName(name: string): AnyRouteRef | undefined;
}

const frames = new Map<string, PaletteFrame>();
const failedUntil = new Map<string, number>();

export const hasFailed = (id: string) => (failedUntil.get(id) ?? 0) > Date.now();

/** The live frame of a plugin, started on first use (a changed record gets a fresh frame). */
export function paletteFrame(plugin: PalettePlugin, deps: PaletteDeps): PaletteFrame {
  const existing = frames.get(plugin.id);
  if (existing && !existing.stopped && existing.fingerprint === fingerprint(plugin)) {
    existing.deps = deps;
    return existing;
  }
  existing?.stop();
  const frame = new PaletteFrame(plugin, deps);
  frames.set(plugin.id, frame);
  return frame;
}

const fingerprint = (p: PalettePlugin) => JSON.stringify([p.src, p.configuration, p.capabilities, p.name]);

export class PaletteFrame {
  readonly fingerprint: string;
  stopped = false;
  private readonly element: HTMLIFrameElement;
  private readonly bridge: Bridge;
  private readonly ready: Promise<void>;
  private readonly searches = new Map<string, (items: SearchResult[] | null) => void>();
  private readonly toasts: number[] = [];
  private nextCall = 1;
  private idle: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly plugin: PalettePlugin,
    public deps: PaletteDeps,
  ) {
    this.fingerprint = fingerprint(plugin);
    const element = document.createElement('iframe');
    element.setAttribute('sandbox', 'allow-scripts');
    element.setAttribute('aria-hidden', 'true');
    element.setAttribute('tabindex', '-1');
    element.referrerPolicy = 'no-referrer';
    element.title = `Plugin ${plugin.name} (palette)`;
    element.dataset.palettePlugin = plugin.name;
    element.style.cssText = 'position:absolute;width:0;height:0;border:0;';
    this.element = element;
    let started!: () => void;
    let failed!: (error: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => {
      started = resolve;
      failed = reject;
    });
    this.ready.catch(() => undefined);
    this.bridge = createBridge({
      frame: element,
      welcome: () => ({ slot: PALETTE_SLOT, context: null, configuration: plugin.configuration }),
      onReady: () => started(),
      onFail: (reason) => {
        failedUntil.set(plugin.id, Date.now() + FAILED_FOR_MS);
        failed(new Error(`${plugin.name} was stopped because ${reason}`));
        this.stop();
      },
      onMessage: (message) => {
        const answer = (call: string, error?: string, value?: unknown) =>
          this.bridge.send(
            error
              ? { type: 'result', call, ok: false, error }
              : { type: 'result', call, ok: true, ...(value !== undefined ? { value } : {}) },
          );
        if (message.type === 'search-results') {
          const settle = this.searches.get(message.call);
          this.searches.delete(message.call);
          return settle?.(message.items);
        }
        const needed = capabilityFor(message);
        if (needed && !plugin.capabilities.includes(needed)) {
          const error = refusal(plugin.name, needed);
          return 'call' in message
            ? answer(message.call, error)
            : this.bridge.send({ type: 'refused', request: message.type, error });
        }
        const handled = runHostAction(message, {
          plugin,
          registered: true,
          services: this.deps.services,
          routeByName: (name) => this.deps.routeByName(name),
          toasts: this.toasts,
          answer,
        });
        if (handled) return;
        // Buttons are a slot's; risk changes need a risk, which the palette has none of.
        if ('call' in message) answer(message.call, 'There is no risk in the palette to change.');
      },
    });
    element.addEventListener('load', () => this.bridge.loaded());
    element.src = plugin.src;
    document.body.appendChild(element);
    this.touch();
  }

  /** The plugin's results for the text, or null when it fails or the search is aborted. */
  async search(query: string, signal: AbortSignal): Promise<SearchResult[] | null> {
    this.touch();
    try {
      await this.ready;
    } catch {
      return null;
    }
    if (signal.aborted || this.stopped) return null;
    const call = `s${this.nextCall++}`;
    return new Promise((resolve) => {
      const done = (items: SearchResult[] | null) => {
        this.searches.delete(call);
        signal.removeEventListener('abort', aborted);
        resolve(items);
      };
      const aborted = () => done(null);
      signal.addEventListener('abort', aborted);
      this.searches.set(call, done);
      this.bridge.send({ type: 'search', call, query });
    });
  }

  /** Sends the plugin `command {id}` once it is ready; rejects when it cannot start. */
  async command(id: string): Promise<void> {
    this.touch();
    await this.ready;
    if (this.stopped) throw new Error(`${this.plugin.name} is not running.`);
    this.bridge.send({ type: 'command', id });
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.idle) clearTimeout(this.idle);
    this.bridge.dispose();
    this.element.remove();
    for (const settle of [...this.searches.values()]) settle(null);
    if (frames.get(this.plugin.id) === this) frames.delete(this.plugin.id);
  }

  private touch() {
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => this.stop(), IDLE_MS);
  }
}
