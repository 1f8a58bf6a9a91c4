import type { Plugin, Rollup } from 'vite';

/**
 * Puts the modules the entry needs before it can run into one `startup` chunk.
 *
 * Left to itself the bundler cuts the first page's code into ~30 small chunks, each shared with some
 * lazy page (Mantine's Box, Button, Text, the API client …), and the entry runs only after the
 * browser has fetched them all: over HTTP/1.1 six at a time, a round trip per wave, before the page's
 * own code even starts to download. One chunk holds the same modules in one request.
 *
 * "Needed" is the entry's static imports, recursively, with one refinement: what a module passes
 * on (`export … from`, or Mantine's index, which imports every component to export it) is followed
 * only for the names an importer asks for. Followed whole, `@mantine/core` and `@atrium/sdk` would
 * move into the first load every component and helper that any lazy page uses. Where a name cannot
 * be traced, the module is followed whole. A module left out only ends up in another chunk that the
 * startup chunk imports: a request more, never a missing module. `npm run bench -- p3` lists the
 * first load's modules.
 */
const UI_KIT = /\/node_modules\/(?:@mantine\/(?:core|hooks)|@floating-ui)\//;
const NAMED_IMPORT = /import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;
const NAMED_REEXPORT = /export\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;
const STAR_REEXPORT = /export\s*\*\s*from\s*["']([^"']+)["']/g;
const DECLARED_EXPORT = /export\s+(?:async\s+)?(?:function\*?|const|let|var|class)\s+([\w$]+)/g;
const LOCAL_EXPORT = /export\s*\{([^}]*)\}(?!\s*from)/g;

/** `a, b as c, type d` → [{ imported: a, local: a }, { imported: b, local: c }] (types dropped). */
function names(list: string): { imported: string; local: string }[] {
  return list
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part && !part.startsWith('type '))
    .map((part) => {
      const [imported, local] = part.split(/\s+as\s+/).map((s) => s.trim());
      return { imported: imported!, local: local ?? imported! };
    });
}

function stripComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/[^\n]*/g, '$1');
}

export function startupChunk(): Plugin {
  const startup = new Set<string>();
  return {
    name: 'atrium-startup-chunk',
    apply: 'build',
    async buildEnd() {
      const context = this as unknown as Rollup.PluginContext;
      const resolved = new Map<string, Promise<string | null>>();
      const resolve = (spec: string, importer: string) => {
        const key = `${importer}\0${spec}`;
        if (!resolved.has(key))
          resolved.set(
            key,
            context.resolve(spec, importer).then((r) => r?.id ?? null),
          );
        return resolved.get(key)!;
      };
      const codeOf = (id: string) => context.getModuleInfo(id)?.code ?? '';

      /** The module that defines `name` for importers of barrel `id`, or null if it cannot be traced. */
      const defining = async (id: string, name: string, depth = 0): Promise<string | null> => {
        if (depth > 20) return null;
        const code = stripComments(codeOf(id));
        for (const [, declared] of code.matchAll(DECLARED_EXPORT)) if (declared === name) return id;
        // `export { binding as name }`: declared here, unless the binding was itself imported (as
        // Mantine's index imports each component to export it), then where it came from.
        for (const [, list] of code.matchAll(LOCAL_EXPORT)) {
          const hit = names(list!).find((n) => n.local === name);
          if (!hit) continue;
          for (const [, imports, spec] of code.matchAll(NAMED_IMPORT)) {
            const from = names(imports!).find((n) => n.local === hit.imported);
            if (from) return follow(await resolve(spec!, id), from.imported, depth);
          }
          return id;
        }
        for (const [, list, spec] of code.matchAll(NAMED_REEXPORT)) {
          const hit = names(list!).find((n) => n.local === name);
          if (hit) return follow(await resolve(spec!, id), hit.imported, depth);
        }
        for (const [, spec] of code.matchAll(STAR_REEXPORT)) {
          const target = await resolve(spec!, id);
          if (!target) return null;
          const found = await defining(target, name, depth + 1);
          if (found) return found;
        }
        return null;
      };
      const follow = async (target: string | null, name: string, depth: number) =>
        !target ? null : defining(target, name, depth + 1);

      const IMPORT_ANY = /import\s*(?:[\w$*{][^;'"]*?from\s*)?["']([^"']+)["']/g;
      const add = async (id: string, follow = true): Promise<void> => {
        if (startup.has(id)) return;
        startup.add(id);
        if (follow) await visit(id);
      };
      const visit = async (id: string): Promise<void> => {
        const info = context.getModuleInfo(id);
        if (!info) return;
        const code = stripComments(info.code ?? '');
        // What this module imports (re-exports are followed only when an importer asks for them):
        // by name where it names them, whole otherwise (default, namespace, side effect).
        const wanted = new Map<string, string[] | 'all'>();
        for (const [statement, spec] of code.matchAll(IMPORT_ANY)) {
          const target = await resolve(spec!, id);
          if (!target) continue;
          const list = /^import\s*\{([^}]*)\}\s*from/.exec(statement);
          const before = wanted.get(target);
          if (!list || before === 'all') wanted.set(target, 'all');
          else wanted.set(target, [...(before ?? []), ...names(list[1]!).map((n) => n.imported)]);
        }
        // Deps named only in `export … from` are followed when an importer asks for their names.
        const reexported = new Set<string>();
        for (const [, , spec] of code.matchAll(NAMED_REEXPORT)) reexported.add((await resolve(spec!, id)) ?? '');
        for (const [, spec] of code.matchAll(STAR_REEXPORT)) reexported.add((await resolve(spec!, id)) ?? '');
        for (const dep of info.importedIds) {
          const asked = wanted.get(dep) ?? (reexported.has(dep) ? undefined : 'all');
          if (asked === undefined) continue;
          if (asked !== 'all') {
            const found = await Promise.all(asked.map((name) => defining(dep, name)));
            if (found.every((file): file is string => file !== null)) {
              // The module imported from, for its own evaluation; what it passes on, followed.
              for (const file of found) await add(file);
              await add(dep, false);
              continue;
            }
          }
          await add(dep);
        }
      };
      for (const id of context.getModuleIds()) {
        const info = context.getModuleInfo(id);
        // The HTML page's scripts stay the entry chunk; what they import moves.
        if (info?.isEntry) for (const script of info.importedIds) await visit(script);
      }
      if (process.env.STARTUP_DEBUG)
        (await import('node:fs')).writeFileSync(process.env.STARTUP_DEBUG, [...startup].join('\n'));
    },
    config() {
      return {
        build: {
          rolldownOptions: {
            output: {
              // Moving modules between chunks by hand can put a module before one it needs;
              // the bundler then keeps the modules' own order (rolldown's advice for such groups).
              strictExecutionOrder: true,
              codeSplitting: {
                groups: [
                  {
                    name: 'startup',
                    test: (id: string) => startup.has(id),
                    // The set is already closed over what the entry needs; following the captured
                    // modules' imports again would follow the barrels whole.
                    includeDependenciesRecursively: false,
                    priority: 2,
                  },
                  {
                    // The Mantine components and hooks the lazy pages use, as one chunk: a page
                    // otherwise waited for ~40 of them (Tabs, Select, Modal …) in waves of six.
                    name: 'ui-kit',
                    test: (id: string) => !startup.has(id) && UI_KIT.test(id),
                    includeDependenciesRecursively: false,
                    priority: 1,
                  },
                ],
              },
            },
          },
        },
      };
    },
  };
}
