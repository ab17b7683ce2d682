/**
 * Invariant: every integer in the IR is one a JSON number read by JavaScript holds exactly —
 * at most 2^53 − 1 in size. A larger one has already lost digits (`12345678901234567890` is held
 * as `12345678901234567000`); a string keeps every digit. A warning: the value is still a number.
 * Spec: spec/checks.md#unsafe-integer
 */
import { isUnsafeInteger } from '../../language/index.js';
import type { Rule } from '../rule.js';

export const NumberPrecisionRule: Rule = {
  name: 'NumberPrecisionRule',
  codes: { 'unsafe-integer': 'warning' },
  values: { where: isUnsafeInteger, typeOf: 'number' },
  value(value, path, ctx) {
    if (!isUnsafeInteger(value)) return;
    ctx.report({
      code: 'unsafe-integer',
      message: `this integer is beyond 2^53 − 1, so the IR (a JSON number, read as a double) holds it as ${String(value)}; write it as a string to keep every digit`,
      path,
    });
  },
};
