import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineCommand } from './command.js';
import { CommandError, createCommandRegistry } from './command-registry.js';
import { createContextService } from './context-service.js';
import { fakeHostServices } from './test-services.js';

function setup() {
  const context = createContextService({ role: 'Administrator' });
  const services = fakeHostServices();
  const registry = createCommandRegistry({ context, services });
  return { context, services, registry };
}

describe('command registry', () => {
  it('runs a command with checked args and host services', async () => {
    const { registry, services } = setup();
    registry.registerCommand(
      defineCommand({
        id: 'claims.open',
        title: 'Open claim',
        args: z.object({ claimId: z.string().min(1) }),
        run: ({ claimId }, { services: s }) => {
          s.navigate(`/claims/${claimId}`);
          return claimId;
        },
      }),
    );
    await expect(registry.executeCommand('claims.open', { claimId: 'C-1' })).resolves.toBe('C-1');
    expect(services.navigate).toHaveBeenCalledWith('/claims/C-1');
  });

  it('refuses bad args at the boundary without running', async () => {
    const { registry } = setup();
    const run = vi.fn();
    registry.registerCommand({ id: 'x.go', title: 'Go', args: z.object({ n: z.number().int() }), run });
    const error = await registry.executeCommand('x.go', { n: 'one' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandError);
    expect((error as CommandError).code).toBe('invalid-args');
    expect((error as CommandError).issues[0]?.path).toBe('n');
    expect(run).not.toHaveBeenCalled();
  });

  it('loads a lazily declared schema on first run and checks args with it', async () => {
    const { registry } = setup();
    const run = vi.fn();
    const load = vi.fn(async () => z.object({ n: z.number().int() }));
    registry.registerCommand({ id: 'x.lazy', title: 'Lazy', args: load, run });
    expect(load).not.toHaveBeenCalled();
    await expect(registry.executeCommand('x.lazy', { n: 'one' })).rejects.toMatchObject({ code: 'invalid-args' });
    await registry.executeCommand('x.lazy', { n: 2 });
    expect(run.mock.calls.map((c) => c[0])).toEqual([{ n: 2 }]);
  });

  it('passes parsed (transformed, defaulted) args to run', async () => {
    const { registry } = setup();
    const run = vi.fn();
    registry.registerCommand({
      id: 'x.page',
      title: 'Page',
      args: z.object({ page: z.coerce.number().default(1) }),
      run,
    });
    await registry.executeCommand('x.page', { page: '3' });
    await registry.executeCommand('x.page', {});
    expect(run.mock.calls.map((c) => c[0])).toEqual([{ page: 3 }, { page: 1 }]);
  });

  it('refuses args for a command that takes none', async () => {
    const { registry } = setup();
    registry.registerCommand({ id: 'x.none', title: 'None', run: () => 1 });
    await expect(registry.executeCommand('x.none', { a: 1 })).rejects.toMatchObject({ code: 'invalid-args' });
    await expect(registry.executeCommand('x.none')).resolves.toBe(1);
  });

  it('checks the when clause at execution time', async () => {
    const { registry, context } = setup();
    const run = vi.fn();
    registry.registerCommand({ id: 'admin.only', title: 'Admin', when: "role == 'Administrator' && !modalOpen", run });
    expect(registry.isEnabled('admin.only')).toBe(true);
    context.setHost('modalOpen', true);
    expect(registry.isEnabled('admin.only')).toBe(false);
    await expect(registry.executeCommand('admin.only')).rejects.toMatchObject({ code: 'disabled' });
    expect(registry.listEnabled()).toEqual([]);
    expect(run).not.toHaveBeenCalled();
  });

  it('refuses unknown and duplicate ids', async () => {
    const { registry } = setup();
    await expect(registry.executeCommand('nope')).rejects.toMatchObject({ code: 'not-found' });
    registry.registerCommand({ id: 'a', title: 'A', run: () => undefined });
    expect(() => registry.registerCommand({ id: 'a', title: 'A again', run: () => undefined })).toThrow(
      /already registered/,
    );
  });

  it('propagates a failing command and its async rejections', async () => {
    const { registry } = setup();
    registry.registerCommand({
      id: 'boom',
      title: 'Boom',
      run: () => {
        throw new Error('sync');
      },
    });
    registry.registerCommand({ id: 'later', title: 'Later', run: async () => Promise.reject(new Error('async')) });
    await expect(registry.executeCommand('boom')).rejects.toThrow('sync');
    await expect(registry.executeCommand('later')).rejects.toThrow('async');
  });

  it('disposes a registration once, without removing a newer one under the same id', () => {
    const { registry } = setup();
    const dispose = registry.registerCommand({ id: 'a', title: 'A', run: () => 1 });
    dispose();
    expect(registry.has('a')).toBe(false);
    registry.registerCommand({ id: 'a', title: 'A2', run: () => 2 });
    dispose();
    expect(registry.get('a')?.title).toBe('A2');
  });

  it('keeps list() identity until the set changes and notifies subscribers', () => {
    const { registry } = setup();
    const listener = vi.fn();
    registry.subscribe(listener);
    registry.registerCommand({ id: 'a', title: 'A', run: () => 1 });
    const first = registry.list();
    expect(registry.list()).toBe(first);
    const dispose = registry.registerCommand({ id: 'b', title: 'B', run: () => 1 });
    expect(registry.list()).not.toBe(first);
    expect(registry.list().map((c) => c.id)).toEqual(['a', 'b']);
    dispose();
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('registers a batch with one notification, all or nothing, and disposes it at once', () => {
    const { registry } = setup();
    registry.registerCommand({ id: 'taken', title: 'Taken', run: () => undefined });
    const listener = vi.fn();
    registry.subscribe(listener);
    expect(() =>
      registry.registerCommands([
        { id: 'b1', title: 'B1', run: () => undefined },
        { id: 'taken', title: 'Again', run: () => undefined },
      ]),
    ).toThrow(/already registered/);
    expect(() =>
      registry.registerCommands([
        { id: 'b1', title: 'B1', run: () => undefined },
        { id: 'b1', title: 'B1 again', run: () => undefined },
      ]),
    ).toThrow(/registered twice/);
    expect(registry.has('b1')).toBe(false);
    const dispose = registry.registerCommands(
      [
        { id: 'b1', title: 'B1', run: () => undefined },
        { id: 'b2', title: 'B2', run: () => undefined },
      ],
      { source: 'bulk' },
    );
    expect(listener).toHaveBeenCalledTimes(1);
    expect(registry.get('b2')?.source).toBe('bulk');
    dispose();
    expect(listener).toHaveBeenCalledTimes(2);
    expect(registry.list().map((c) => c.id)).toEqual(['taken']);
  });

  it('holds 10,000 commands and filters them by when clause', async () => {
    const { registry, context } = setup();
    for (let i = 0; i < 10_000; i++) {
      registry.registerCommand({
        id: `bulk.cmd${i}`,
        title: `Command ${i}`,
        when: i % 2 === 0 ? "role == 'Administrator'" : '!modalOpen',
        keywords: ['bulk'],
        run: () => i,
      });
    }
    const enabled = registry.listEnabled();
    context.setHost('modalOpen', true);
    const enabledInModal = registry.listEnabled();
    await expect(registry.executeCommand('bulk.cmd9998')).resolves.toBe(9998);
    expect(enabled).toHaveLength(10_000);
    expect(enabledInModal).toHaveLength(5_000);
  });

  it("hides a refused module's commands from the palette and refuses to run them", async () => {
    const { registry } = setup();
    registry.registerCommand({ id: 'diary.open', title: 'Open Diary', run: () => 'opened' }, { module: 'diary' });
    registry.registerCommand({ id: 'hello.greet', title: 'Greet', run: () => 'hi' });
    registry.setHiddenModules(['diary']);
    expect(registry.listEnabled().map((c) => c.id)).toEqual(['hello.greet']);
    expect(registry.isEnabled('diary.open')).toBe(false);
    await expect(registry.executeCommand('diary.open')).rejects.toMatchObject({ code: 'disabled' });
    registry.setHiddenModules([]);
    await expect(registry.executeCommand('diary.open')).resolves.toBe('opened');
  });
});
