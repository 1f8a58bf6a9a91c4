import { describe, expect, it } from 'vitest';
import { evaluateMapping, moneyWarnings } from './evaluate.js';

describe('decimal functions in JSONata mappings', () => {
  it('keeps money exact where JSONata arithmetic is binary floating point', async () => {
    const input = { a: '1.1', b: '2.2', items: [{ amount: '0.1' }, { amount: '0.2' }, { amount: 0.3 }] };
    expect(await evaluateMapping('1.1 + 2.2', input)).toBe(3.3000000000000003);
    expect(await evaluateMapping('$decimalAdd(a, b)', input)).toBe('3.3');
    expect(await evaluateMapping('$decimalAdd(a, b, "0.7")', input)).toBe('4');
    expect(await evaluateMapping('$decimalSub("0.3", "0.1")', input)).toBe('0.2');
    expect(await evaluateMapping('$decimalMul("0.1", 3)', input)).toBe('0.3');
    expect(await evaluateMapping('$decimalSum(items.amount)', input)).toBe('0.6');
    expect(await evaluateMapping('$decimalSum([])', input)).toBe('0');
    expect(await evaluateMapping('$decimalDiv("10", "4")', input)).toBe('2.5');
    expect(await evaluateMapping('$decimalRound("2.345")', input)).toBe('2.34');
    expect(await evaluateMapping('$decimalRound("2.355")', input)).toBe('2.36');
    expect(await evaluateMapping('$decimalRound("2.5", 0)', input)).toBe('2');
    expect(await evaluateMapping('$decimalCompare("10.00", "10")', input)).toBe(0);
    expect(await evaluateMapping('$decimalMul("123456789012345678.91", "100")', input)).toBe('12345678901234567891');
  });

  it('refuses what is not a decimal number, and division by zero, with a clear message', async () => {
    await expect(evaluateMapping('$decimalAdd("ten", "1")', {})).rejects.toThrow(
      '$decimalAdd: "ten" is not a decimal number.',
    );
    await expect(evaluateMapping('$decimalDiv("1", 0)', {})).rejects.toThrow('$decimalDiv: division by zero.');
    await expect(evaluateMapping('$decimalRound("1", 99)', {})).rejects.toThrow('places must be a whole number');
  });

  it('warns when a money field comes out as a number', () => {
    expect(moneyWarnings({ total: '1.10', premium_amount: 1.1, nested: [{ fee: 2 }] })).toEqual([
      'premium_amount became a number (1.1); keep money as a decimal string.',
      'nested[0].fee became a number (2); keep money as a decimal string.',
    ]);
  });

  it('runs in a worker thread: a runaway mapping fails with a clear message while this thread keeps going', async () => {
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 20);
    try {
      // One catastrophic regular expression: no evaluator hook runs while it backtracks, so the
      // worker is terminated from outside a moment after the deadline.
      const stuck = evaluateMapping('$match("' + 'a'.repeat(40) + '!", /(a+)+$/)', {}, { deadlineMs: 200 });
      await expect(stuck).rejects.toThrow('The mapping took longer than 200 ms and was stopped.');
      expect(ticks).toBeGreaterThan(10);
      // Endless recursion stops at the depth limit inside the worker; the pool goes on working.
      await expect(evaluateMapping('($f := function($n) { 1 + $f($n + 1) }; $f(0))', {})).rejects.toThrow(
        /nests deeper than 200 levels/,
      );
      expect(await evaluateMapping('$decimalAdd(a, "1")', { a: '1.5' })).toBe('2.5');
    } finally {
      clearInterval(ticking);
    }
  });
});
