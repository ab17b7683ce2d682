/** Every check rule, in the order their diagnostics are reported for a statement. */
import type { Rule } from '../rule.js';
import { ConfirmationRule } from './ConfirmationRule.js';
import { DateTimeRule } from './DateTimeRule.js';
import { DurationRule } from './DurationRule.js';
import { ExclusiveArgsRule } from './ExclusiveArgsRule.js';
import { FactRule } from './FactRule.js';
import { ExperienceRule } from './ExperienceRule.js';
import { GovernedColumnRule } from './GovernedColumnRule.js';
import { LockPolicyRule } from './LockPolicyRule.js';
import { MergeRule } from './MergeRule.js';
import { NumberPrecisionRule } from './NumberPrecisionRule.js';
import { RangeRule } from './RangeRule.js';
import { ReferenceRule } from './ReferenceRule.js';
import { RequiredFieldsRule } from './RequiredFieldsRule.js';
import { RRuleRule } from './RRuleRule.js';
import { StageOpRule } from './StageOpRule.js';
import { TargetModeRule } from './TargetModeRule.js';
import { TimeRangeRule } from './TimeRangeRule.js';
import { UnknownConditionRule } from './UnknownConditionRule.js';
import { VacuousConditionRule } from './VacuousConditionRule.js';
import { WriteLimitRule } from './WriteLimitRule.js';

export const RULES: readonly Rule[] = [
  StageOpRule,
  TargetModeRule,
  ConfirmationRule,
  WriteLimitRule,
  UnknownConditionRule,
  VacuousConditionRule,
  RequiredFieldsRule,
  ExclusiveArgsRule,
  TimeRangeRule,
  RangeRule,
  MergeRule,
  ReferenceRule,
  ExperienceRule,
  LockPolicyRule,
  GovernedColumnRule,
  FactRule,
  DateTimeRule,
  DurationRule,
  RRuleRule,
  NumberPrecisionRule,
];

export {
  ConfirmationRule, DateTimeRule, DurationRule, ExclusiveArgsRule, ExperienceRule, GovernedColumnRule, LockPolicyRule, MergeRule, NumberPrecisionRule, RangeRule, ReferenceRule,
  RequiredFieldsRule, RRuleRule, StageOpRule, TargetModeRule, TimeRangeRule, UnknownConditionRule, VacuousConditionRule, WriteLimitRule,
};
