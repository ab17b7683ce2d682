/// <reference lib="webworker" />
/**
 * Parses and checks the script off the main thread, so typing never waits for the checker.
 * Protocol: `{version, text}` in, `{version, diagnostics}` out (diagnostics are plain JSON).
 */
import { getDiagnostics } from '../../src/services/diagnostics.ts';

export interface AnalysisRequest { readonly version: number; readonly text: string }
export interface AnalysisResponse { readonly version: number; readonly diagnostics: ReturnType<typeof getDiagnostics> }

self.onmessage = (event: MessageEvent<AnalysisRequest>) => {
  const { version, text } = event.data;
  const response: AnalysisResponse = { version, diagnostics: getDiagnostics(text) };
  self.postMessage(response);
};
