/**
 * Set-up of every unit test file. In a jsdom file, Testing Library's `findBy…` and `waitFor` poll
 * for their condition; their default deadline of 1 s is wall-clock time that two loaded cores
 * overrun while a whole page renders, so it is raised here. A condition that never holds still
 * fails, after this deadline, and the test's own timeout (vitest.config.ts) guards against a hang.
 * Files that configure a deadline of their own keep it.
 */
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 20_000 });
}

export {};
