/// <reference lib="webworker" />
/**
 * Parses and checks the script off the main thread, so typing never waits for the checker.
 * Protocol: `{version, text}` in; `{version, text, diagnostics, irs, sourceMaps}` out (plain data
 * and Maps, which structured clone carries), so the page never re-parses what the worker parsed.
 */
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { materialize, type SourceMap } from '../../src/diagnostics/sourceMap.js';
import type { IR } from '../../src/ir/schema.js';
import { textToIr } from '../../src/pipeline.js';

export interface AnalysisRequest { readonly version: number; readonly text: string }
export interface AnalysisResponse {
  readonly version: number;
  readonly text: string;
  readonly diagnostics: Diagnostic[];
  readonly irs: IR[];
  readonly sourceMaps: SourceMap[];
}

self.onmessage = (event: MessageEvent<AnalysisRequest>) => {
  const { version, text } = event.data;
  // The same front end as `getDiagnostics` (src/services), keeping the IR it produced too.
  const { diagnostics, irs, sourceMaps } = textToIr(text);
  // The front end builds source maps when first read; structured clone copies a Map's entries
  // without calling its methods, so they are built here first.
  const response: AnalysisResponse = { version, text, diagnostics, irs, sourceMaps: sourceMaps.map(materialize) };
  self.postMessage(response);
};
