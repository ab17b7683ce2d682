/**
 * The `rrule` library, whichever way it was loaded: Node imports its CommonJS build (the classes
 * sit on the default export), bundlers its ES module build (named exports). Reading the default
 * through `Reflect.get` keeps bundlers from flagging a default export the ES build lacks.
 */
import * as rruleModule from 'rrule';

type RRuleModule = typeof rruleModule;
const loaded = (Reflect.get(rruleModule, 'default') as RRuleModule | undefined)?.RRule ? (Reflect.get(rruleModule, 'default') as RRuleModule) : rruleModule;

export const RRule: RRuleModule['RRule'] = loaded.RRule;
export const rrulestr: RRuleModule['rrulestr'] = loaded.rrulestr;
