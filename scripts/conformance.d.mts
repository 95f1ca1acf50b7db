/** Types of scripts/conformance.mjs (for the vitest test that imports it). */
export declare const SCENARIOS: string[];
export interface ScenarioCheck {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | string;
  error?: string;
}
export interface ScenarioResult {
  scenario: string;
  passed: boolean;
  exitCode: number;
  checks: ScenarioCheck[];
  output: string;
}
export declare function runScenario(url: string, scenario: string): Promise<ScenarioResult>;
export declare function runScenarios(url: string, scenarios?: string[]): Promise<ScenarioResult[]>;
export declare function spawnServer(): Promise<{ url: string; stop(): Promise<void> }>;
