/** Types of scripts/conformance.mjs (for the vitest test that imports it). */
export declare const REVISIONS: string[];
export declare const NOT_APPLICABLE: Record<string, Record<string, string>>;
export declare const EXEMPT_CHECKS: Record<string, string>;
export interface ConformanceCheck {
  id: string;
  status: string;
  error?: string;
}
export interface ScenarioVerdict {
  scenario: string;
  applies: boolean;
  reason?: string;
  passed?: boolean;
  failed?: ConformanceCheck[];
  exempt?: Array<{ id: string; reason: string }>;
  checks: ConformanceCheck[];
}
export declare function suiteNode(): string;
export declare function verdict(
  revision: string,
  scenario: string,
  checks: ConformanceCheck[],
): ScenarioVerdict;
export declare function runRevision(
  url: string,
  revision: string,
): Promise<{ revision: string; exitCode: number; verdicts: ScenarioVerdict[]; output: string }>;
export declare function spawnServer(): Promise<{ url: string; stop(): Promise<unknown> }>;
