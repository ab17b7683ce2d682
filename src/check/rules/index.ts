/** Every check rule, in the order their diagnostics are reported for a statement. */
import type { Rule } from '../rule.ts';
import { ConfirmationRule } from './ConfirmationRule.ts';
import { DateTimeRule } from './DateTimeRule.ts';
import { DurationRule } from './DurationRule.ts';
import { ExclusiveArgsRule } from './ExclusiveArgsRule.ts';
import { LockPolicyRule } from './LockPolicyRule.ts';
import { MergeRule } from './MergeRule.ts';
import { NumberPrecisionRule } from './NumberPrecisionRule.ts';
import { RangeRule } from './RangeRule.ts';
import { RequiredFieldsRule } from './RequiredFieldsRule.ts';
import { RRuleRule } from './RRuleRule.ts';
import { StageOpRule } from './StageOpRule.ts';
import { TargetModeRule } from './TargetModeRule.ts';
import { TimeRangeRule } from './TimeRangeRule.ts';
import { UnknownConditionRule } from './UnknownConditionRule.ts';
import { WriteLimitRule } from './WriteLimitRule.ts';

export const RULES: readonly Rule[] = [
  StageOpRule,
  TargetModeRule,
  ConfirmationRule,
  WriteLimitRule,
  UnknownConditionRule,
  RequiredFieldsRule,
  ExclusiveArgsRule,
  TimeRangeRule,
  RangeRule,
  MergeRule,
  LockPolicyRule,
  DateTimeRule,
  DurationRule,
  RRuleRule,
  NumberPrecisionRule,
];

export {
  ConfirmationRule, DateTimeRule, DurationRule, ExclusiveArgsRule, LockPolicyRule, MergeRule, NumberPrecisionRule, RangeRule,
  RequiredFieldsRule, RRuleRule, StageOpRule, TargetModeRule, TimeRangeRule, UnknownConditionRule, WriteLimitRule,
};
